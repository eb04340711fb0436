from olmtui.cli import main

raise SystemExit(main())
