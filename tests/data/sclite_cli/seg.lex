cat
go
hello
mat
on
sat
the
wanna
