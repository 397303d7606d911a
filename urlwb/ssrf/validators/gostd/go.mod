module urlwb/ssrf/validators/go

go 1.22
