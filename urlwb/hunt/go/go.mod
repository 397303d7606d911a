module urlwb/hunt/go

go 1.26
