// Package tseino connects toolsearch to CloudWeGo eino.
package tseino
