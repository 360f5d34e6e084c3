// Package demo embeds the demo catalog used by the toolsearch command when
// no --catalog is given: built-in agent tools and popular MCP servers written
// for this project, plus the MCP tools of LiveMCPBench (Apache-2.0; see
// NOTES.md).
package demo

import _ "embed"

// Catalog is the demo catalog in the catalog-file format.
//
//go:embed catalog.json
var Catalog []byte
