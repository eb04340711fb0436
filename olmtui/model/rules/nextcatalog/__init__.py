"""The next release's catalog (``--next-catalog``): for every installed operator, whether its
package, channel and an upgrade edge from the installed version are still there after an
OpenShift upgrade, and the way out before it (R-NXT-1 .. R-NXT-6)."""
