package toolsearchtest

import (
	"bytes"

	"github.com/toolsearch/toolsearch/internal/demo"
)

// DemoCatalog returns the demo catalog, in the catalog-file format that
// toolsearch.ParseCatalog reads: 579 tools, the built-in tools of a coding
// agent (Read, Bash, …), MCP tools of popular servers (GitHub, Slack, …)
// written for this project, and the MCP tools of LiveMCPBench
// (Apache-2.0). It is the catalog the toolsearch command searches when
// given no --catalog: a realistic registry for testing an agent loop
// offline. Each call returns a new copy.
func DemoCatalog() []byte { return bytes.Clone(demo.Catalog) }
