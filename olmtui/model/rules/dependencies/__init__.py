"""What operators require of each other and share: required APIs, upgrades that
would break a dependant, one operator installed in several namespaces."""
