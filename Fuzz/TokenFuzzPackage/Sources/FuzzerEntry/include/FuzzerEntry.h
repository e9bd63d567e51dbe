// Nothing to import: FuzzerEntry only gives the executable its main.
