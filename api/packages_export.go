package api

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/content"
	"github.com/vigil-soc/vigil/hunt/huntflow"
	"github.com/vigil-soc/vigil/store"
)

// exportRequest is the manifest an export is published under.
type exportRequest struct {
	Name          string   `json:"name"`
	Version       string   `json:"version"`
	Description   string   `json:"description"`
	Author        string   `json:"author"`
	License       string   `json:"license"`
	Tags          []string `json:"tags"`
	Compatibility string   `json:"compatibility"`
}

func (s *server) exportPlaybookPackage(c *gin.Context) (reply, error) {
	return s.exportOne(c, func() (content.Item, error) {
		it, err := content.PlaybookItem(c, s.store, c.Param("playbook_id"))
		return it, orNotFound(err, "playbook")
	})
}

func (s *server) exportHuntPackage(c *gin.Context) (reply, error) {
	return s.exportOne(c, func() (content.Item, error) {
		it, err := content.HuntItem(c, s.store, c.Param("hunt_id"))
		return it, orNotFound(err, "hunt")
	})
}

// exportOne answers a package holding the item read, under the manifest
// in the body; the package must pass the validation an import would make.
// A hunt that uses queries installed by packages carries them along, so
// the package is complete wherever it is imported.
func (s *server) exportOne(c *gin.Context, read func() (content.Item, error)) (reply, error) {
	var req exportRequest
	if err := decodeJSON(c, &req, false); err != nil {
		return reply{}, err
	}
	it, err := read()
	if err != nil {
		return reply{}, err
	}
	m := content.Manifest{Name: req.Name, Version: req.Version, Description: req.Description, Author: req.Author,
		License: req.License, Tags: req.Tags, Compatibility: req.Compatibility}
	p := content.ExportOne(m, it)
	if it.Type == content.TypeHunt {
		if err := s.addHuntQueries(c, p); err != nil {
			return reply{}, err
		}
	}
	opts, err := s.validationOptions(c)
	if err != nil {
		return reply{}, err
	}
	opts.RequireSignature = false
	rep := content.Validate(p, nil, opts)
	if !rep.Valid {
		bad := map[string]string{}
		for _, pr := range rep.Errors {
			field := pr.Field
			if pr.Index == nil {
				field = trimManifest(field)
			}
			bad[field] = pr.Message
		}
		return reply{}, validationError(bad)
	}
	setAuditTarget(c, it.Key())
	setAuditDetails(c, map[string]any{"package": m.Name, "version": m.Version})
	return ok(p), nil
}

// trimManifest names a manifest field as the export body does.
func trimManifest(field string) string {
	const prefix = "manifest."
	if len(field) > len(prefix) && field[:len(prefix)] == prefix {
		return field[len(prefix):]
	}
	return field
}

func (s *server) addHuntQueries(c *gin.Context, p *content.Package) error {
	var d content.HuntData
	if err := json.Unmarshal(p.Contents[0].Data, &d); err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, q := range d.Queries {
		if q.LibraryID == "" || seen[q.LibraryID] {
			continue
		}
		seen[q.LibraryID] = true
		pq, err := s.store.GetPackageQuery(c, q.LibraryID)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		p.Contents = append(p.Contents, content.QueryItem(pq))
	}
	return nil
}

// installedView is an installed package as listed.
type installedView struct {
	Name          string             `json:"name"`
	Version       string             `json:"version"`
	Description   string             `json:"description"`
	Author        string             `json:"author"`
	License       string             `json:"license,omitempty"`
	Tags          []string           `json:"tags"`
	Compatibility string             `json:"compatibility,omitempty"`
	Builtin       bool               `json:"builtin"`
	SignedBy      string             `json:"signed_by,omitempty"`
	InstalledBy   string             `json:"installed_by"`
	InstalledAt   string             `json:"installed_at"`
	UpdatedAt     string             `json:"updated_at"`
	ItemCount     int                `json:"item_count"`
	Items         []installedItemRow `json:"items"`
}

type installedItemRow struct {
	Type     string `json:"type"`
	Name     string `json:"name"`
	TargetID string `json:"target_id"`
	Version  string `json:"package_version"`
}

func viewInstalled(p *store.InstalledPackage, items []store.PackageItem) installedView {
	v := installedView{Name: p.Name, Version: p.Version, Description: p.Description, Author: p.Author, License: p.License,
		Tags: orEmpty(p.Tags.V), Compatibility: p.Compatibility, Builtin: p.Builtin, SignedBy: p.SignedBy,
		InstalledBy: p.InstalledBy, InstalledAt: p.InstalledAt.UTC().Format(timeFormat),
		UpdatedAt: p.UpdatedAt.UTC().Format(timeFormat), ItemCount: len(items), Items: make([]installedItemRow, len(items))}
	for i, it := range items {
		v.Items[i] = installedItemRow{Type: it.ItemType, Name: it.ItemName, TargetID: it.TargetID, Version: it.PackageVersion}
	}
	return v
}

const timeFormat = "2006-01-02T15:04:05.999999999Z07:00"

func (s *server) listPackages(c *gin.Context) (reply, error) {
	rows, err := s.store.ListPackages(c)
	if err != nil {
		return reply{}, err
	}
	items, err := s.store.AllPackageItems(c)
	if err != nil {
		return reply{}, err
	}
	out := make([]installedView, 0, len(rows))
	for i := range rows {
		out = append(out, viewInstalled(&rows[i], items[rows[i].Name]))
	}
	return ok(out), nil
}

func (s *server) getPackage(c *gin.Context) (reply, error) {
	p, err := s.store.GetPackage(c, c.Param("name"))
	if err != nil {
		return reply{}, orNotFound(err, "package")
	}
	items, err := s.store.PackageItems(c, p.Name)
	if err != nil {
		return reply{}, err
	}
	return ok(viewInstalled(p, items)), nil
}

// deletePackage removes a package: the items nobody changed since it
// installed them go, changed ones stay and are listed as kept.
func (s *server) deletePackage(c *gin.Context) (reply, error) {
	name := c.Param("name")
	out, err := content.Uninstall(c, s.store, name)
	switch {
	case errors.Is(err, content.ErrBuiltinPackage):
		return reply{}, newError(http.StatusConflict, CodeBuiltinPackage, err.Error())
	case err != nil:
		return reply{}, orNotFound(err, "package")
	}
	removed, kept := []content.Outcome{}, []content.Outcome{}
	for _, o := range out {
		if o.Action == content.ActionKept {
			kept = append(kept, o)
			continue
		}
		removed = append(removed, o)
		if o.Type == content.TypeHunt && s.temporal != nil {
			if err := huntflow.DeleteSchedule(c, s.temporal, o.TargetID); err != nil {
				s.log.WarnContext(c, "delete schedule of removed hunt", "hunt_id", o.TargetID, "err", err)
			}
		}
	}
	setAuditTarget(c, name)
	setAuditDetails(c, map[string]any{"removed": len(removed), "kept": len(kept)})
	return ok(gin.H{"name": name, "removed": removed, "kept": kept}), nil
}
