from silvics.cli import main

raise SystemExit(main())
