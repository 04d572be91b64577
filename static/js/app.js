// scripts: built by the pages work
