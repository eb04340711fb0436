"""A loopback Kubernetes API server for OLM objects, for tests and ``olmtui demo``.

Real HTTP on 127.0.0.1 that kubernetes-asyncio and kubectl use unmodified; objects are
changed through the Python API, which emits the watch events. On the caller's loop::

    server = LoopbackAPIServer(bookmark_interval=0.1)
    server.state.load(objects)            # plain dicts, e.g. from a must-gather
    await server.start()                  # -> "http://127.0.0.1:<port>"
    server.write_kubeconfig(tmp / "kubeconfig", namespace="default")
    server.state.update(changed_csv)      # watchers see MODIFIED
    server.forbid("csv")                  # 403 from now on; server.allow("csv") undoes it
    server.catalogd.serve("operatorhubio", jsonl)   # catalogd behind the service proxy
    server.hide_group("olm.operatorframework.io")   # a cluster without OLM v1
    await server.stop()

On a loop of its own (for a blocking caller such as a kubectl subprocess test)::

    with run_in_thread(LoopbackAPIServer()) as handle:
        handle.load(objects)
        handle.call(handle.server.drop_connections)

See :mod:`olmtui.apiserver.server` for what is served and the test controls.
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
