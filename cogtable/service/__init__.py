"""Running cogtable as a systemd kiosk service: notify, watchdog, install, logging."""
