// Package tsgenkit connects toolsearch to Firebase Genkit for Go.
package tsgenkit
