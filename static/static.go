// Package static holds the CSS, JavaScript and images served under /static/.
package static

import "embed"

// FS holds css/, js/ and img/.
//
//go:embed css js img
var FS embed.FS
