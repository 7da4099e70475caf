from adaptive_skill.cli import main

raise SystemExit(main())
