import sys

from kit.docs_gen import main

sys.exit(main())
