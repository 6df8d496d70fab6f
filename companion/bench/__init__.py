"""Benchmarks: the rules, the hall server against a bare python-socketio floor, a soak."""
