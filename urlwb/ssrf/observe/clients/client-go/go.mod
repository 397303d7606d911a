module urlwb/ssrf/clients/go

go 1.26
