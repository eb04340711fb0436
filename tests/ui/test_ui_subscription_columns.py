"""Subscriptions view: INSTALLED / NEXT / HEAD show versions, so they fit on any terminal."""

from __future__ import annotations

import pytest

from olmtui.ui.screens.subscriptions import short_csv


@pytest.mark.parametrize(
    ("name", "package", "shown"),
    [
        ("keycloak-operator.v26.6.3", "keycloak-operator", "v26.6.3"),
        ("etcdoperator.v0.9.4-clusterwide", "etcd", "v0.9.4-clusterwide"),
        ("cert-manager.v1.16.5", "cert-manager", "v1.16.5"),
        ("packageserver", "packageserver", "packageserver"),
        (None, "etcd", "-"),
    ],
)
def test_csv_names_lose_their_operator_prefix(name: str | None, package: str, shown: str) -> None:
    assert short_csv(name, package) == shown
