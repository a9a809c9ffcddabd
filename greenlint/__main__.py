from greenlint.cli import main

raise SystemExit(main())
