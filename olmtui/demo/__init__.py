"""``olmtui demo``: a loopback cluster with a realistic OLM story, changed live by a script.

``bundles`` reads the shipped real CSVs and catalog; ``objects`` builds objects as OLM
writes them; ``scenario`` assembles the initial cluster; ``script`` changes it every few
seconds, forever; ``cluster`` runs the server, the live watcher and the script together.
"""
