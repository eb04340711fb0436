"""What only a fleet view shows: pure functions over the reports of several clusters
(``olmtui check --fleet``), each given as ``{target name: report dict}`` of the targets read.
Rules R-FLT-2..6 of ``docs/rules.md``; R-FLT-1 (a target's status) is the runner's."""
