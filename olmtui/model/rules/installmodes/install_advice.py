"""Where a CSV can run, said as the OperatorGroup shapes its install modes allow (R-IM-1).

"Change the group" is no advice: the admin needs the shape that works for this CSV. Each
install mode type admits exactly one shape of targets (R-IM-1), so the advice names them. The
global group is named by its conventional place (OpenShift ships ``global-operators`` in
``openshift-operators``; upstream OLM in ``operators``) and by its shape, so the advice holds
whichever cluster it is.
"""

from __future__ import annotations

from collections.abc import Iterable

#: R-IM-1: each install mode type and the group shape (targets) it admits, in OLM's order.
_SHAPES = (
    (
        "AllNamespaces",
        "a global group (an OperatorGroup with no targetNamespaces and no selector), such as "
        "global-operators in openshift-operators on OpenShift or in operators on upstream OLM",
    ),
    (
        "OwnNamespace",
        "a namespace whose OperatorGroup targets only that namespace itself "
        "(targetNamespaces: [its own namespace])",
    ),
    (
        "SingleNamespace",
        "a namespace whose OperatorGroup targets exactly one other namespace",
    ),
    (
        "MultiNamespace",
        "a namespace whose OperatorGroup lists several namespaces in targetNamespaces "
        "(not all namespaces)",
    ),
)


def install_mode_advice(supported: Iterable[str]) -> str:
    """The sentence naming what the CSV supports and the groups it can be installed in."""
    modes = frozenset(supported)
    fitting = [(mode, shape) for mode, shape in _SHAPES if mode in modes]
    if not fitting:
        return (
            "This CSV supports no install mode, so no OperatorGroup fits: the bundle must be "
            "fixed (install a version that declares its install modes)."
        )
    which = ", ".join(mode for mode, _ in fitting)
    only = "only " if len(fitting) < len(_SHAPES) else ""
    return (
        f"This CSV supports {only}{which}: install it in "
        + " or in ".join(shape for _, shape in fitting)
        + "."
    )
