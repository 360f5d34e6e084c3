module github.com/toolsearch/toolsearch

go 1.26

require github.com/santhosh-tekuri/jsonschema/v5 v5.3.1

require (
	github.com/stretchr/testify v1.12.1
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)
