"""The ledgers of background work: job runs, leases and failed attempts."""
