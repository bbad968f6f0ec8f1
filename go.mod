module github.com/hivebridge/hivebridge

go 1.26.8
