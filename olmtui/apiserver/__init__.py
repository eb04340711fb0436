"""A loopback Kubernetes API server for OLM objects, for tests and ``olmtui demo``.

Real HTTP on 127.0.0.1 that kubernetes-asyncio and kubectl use unmodified; objects are
changed through the Python API. See :mod:`olmtui.apiserver.server`.
"""

from olmtui.apiserver.server import LoopbackAPIServer, RequestRecord
from olmtui.apiserver.state import ClusterState, ObjectExists, ObjectNotFound
from olmtui.apiserver.threaded import ServerThread, run_in_thread

__all__ = [
    "ClusterState",
    "LoopbackAPIServer",
    "ObjectExists",
    "ObjectNotFound",
    "RequestRecord",
    "ServerThread",
    "run_in_thread",
]
