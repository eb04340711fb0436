"""CSV phases (R-CSV-*): what a CSV that is not Succeeded waits for, its Deployments,
its OperatorCondition and its replacement chain."""
