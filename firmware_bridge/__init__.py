"""The wire protocol, the serial link to the Pico, its firmware and a simulator."""
