"""An InstallPlan that keeps retrying on ``forbidden`` errors of its scoped ServiceAccount
(R-OG-7, R-IP-3).

With ``spec.serviceAccountName`` on the OperatorGroup, OLM executes the group's InstallPlans
with that account's permissions only. A step it may not take fails with the API server's
Forbidden error; OLM keeps the plan ``Installing`` and retries for as long as the error is
Forbidden (``retrying execution due to error: ...``): nothing changes until someone grants the
account the permission. The API server names the account, the verb, the resource, its API
group and the namespace (or the cluster scope) in one sentence, which is all the fix needs.
"""

from __future__ import annotations

import re

from olmtui.frozen import frozen

RETRYING = "retrying execution due to error"
_DENIED = re.compile(
    r'User "system:serviceaccount:([^:"]+):([^"]+)" cannot (\S+) resource "([^"]*)" in API '
    r'group "([^"]*)"(?: in the namespace "([^"]+)"| at the cluster scope)?'
)


@frozen
class Denied:
    """What the account may not do: ``namespace`` None means at the cluster scope."""

    account_namespace: str
    account: str
    verb: str
    resource: str
    group: str
    namespace: str | None

    @property
    def permission(self) -> str:
        api = f"API group {self.group}" if self.group else "the core API group"
        where = f"in namespace {self.namespace}" if self.namespace else "at the cluster scope"
        return f"{self.verb} {self.resource} ({api}) {where}"

    @property
    def grant(self) -> str:
        """The ``kubectl`` commands that grant it (shown, never run)."""
        resource = f"{self.resource}.{self.group}" if self.group else self.resource
        subject = f"--serviceaccount={self.account_namespace}:{self.account}"
        name = f"{self.account}-{self.verb}-{self.resource}"
        if self.namespace:
            return (
                f"kubectl create role {name} -n {self.namespace} --verb={self.verb} "
                f"--resource={resource} && kubectl create rolebinding {name} -n "
                f"{self.namespace} --role={name} {subject}"
            )
        return (
            f"kubectl create clusterrole {name} --verb={self.verb} --resource={resource} && "
            f"kubectl create clusterrolebinding {name} --clusterrole={name} {subject}"
        )


def retrying_forbidden(message: str | None) -> Denied | None:
    """The first permission a retrying InstallPlan's message says its ServiceAccount lacks;
    ``None`` when the plan is not retrying on a Forbidden error of a ServiceAccount."""
    text = message or ""
    if RETRYING not in text or "forbidden" not in text:
        return None
    found = _DENIED.search(text)
    if found is None:
        return None
    return Denied(found[1], found[2], found[3], found[4], found[5], found[6])
