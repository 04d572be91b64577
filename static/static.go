// Package static holds the CSS, JavaScript and images served under /static/.
package static

import (
	"bytes"
	"embed"
)

// FS holds css/, js/ and img/.
//
//go:embed css js img
var FS embed.FS

// Stylesheets are the parts of the site's one stylesheet, a file for each
// page or component, in cascade order. The server joins them in this order
// and serves the result as css/app.css (Stylesheet): one request, and no
// build step. A new file in css/ goes in this list (TestStylesheetsListed).
var Stylesheets = []string{
	"base.css",          // design tokens (light and dark), reset, typography
	"header.css",        // the site's header and footer
	"panels.css",        // page heads, panels, alerts
	"forms.css",         // buttons and form controls
	"submit.css",        // the submit page
	"board.css",         // the 9×9 board: the editor and the solved grid
	"puzzle.css",        // the puzzle page
	"lists.css",         // lists of puzzles
	"history.css",       // the history's table
	"stats.css",         // the stats page's counts
	"errorpage.css",     // the error page
	"bands.css",         // difficulty bands' colours and rank marks
	"stats-charts.css",  // the stats page's band table and charts
	"ratings.css",       // the ratings page's scatter charts and the players' figures
	"replay.css",        // the replay player
	"bulk.css",          // import and export
	"play.css",          // the solving board and the explanation's board
	"variant.css",       // a variant's rules drawn on a board, and in words
	"analysis.css",      // the analysis behind "Show solution"
	"print.css",         // print cards and sheets
	"history-phone.css", // the history as cards on a phone
	"grade.css",         // equivalent puzzles and the grade
	"me.css",            // the player's dashboard and the account forms
	"admin.css",         // the moderation pages, the hidden banner, the report form
	"techniques.css",    // the techniques, practice mode, the setter
}

// StylesheetPath is where the joined stylesheet is served, under /static/.
const StylesheetPath = "css/app.css"

// Stylesheet returns the parts of Stylesheets joined in order.
func Stylesheet() ([]byte, error) {
	var b bytes.Buffer
	for _, name := range Stylesheets {
		part, err := FS.ReadFile("css/" + name)
		if err != nil {
			return nil, err
		}
		b.Write(part)
	}
	return b.Bytes(), nil
}
