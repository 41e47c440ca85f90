//! Egress of a sandboxed trial: the container keeps `--network none`; a static forwarder inside
//! it passes DNS and HTTP(S) on loopback over mounted Unix sockets to a sink on the host, which
//! answers harmlessly and records every request.
