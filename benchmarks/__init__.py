"""provcat's benchmarks: each prints a ratio against a baseline measured in the same run."""
