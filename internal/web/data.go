package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/bulk"
	"github.com/sudoku-archive/sudoku/templates"
)

// dataPage describes the open data: what the export holds, its fields
// (from bulk.Fields, the export's own list), its licence and where to
// download it.
func (s *Server) dataPage(c echo.Context) error {
	st, err := s.archive.Stats(c.Request().Context())
	if err != nil {
		return err
	}
	v := templates.DataView{Licence: s.cfg.Licence, Puzzles: st.Total}
	for _, f := range bulk.Fields {
		v.Fields = append(v.Fields, templates.DataField{Name: f.Name, Type: f.Type, Doc: f.Doc})
	}
	for _, f := range bulk.Formats {
		v.Downloads = append(v.Downloads, templates.DataDownload{Format: string(f), URL: exportPath + "?format=" + string(f) + "&sort=submitted&order=asc"})
	}
	return s.render(c, http.StatusOK, templates.DataPage(v))
}
