package api

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/content"
	"github.com/vigil-soc/vigil/store"
)

// Content package error codes.
const (
	// CodeIncompatiblePackage refuses a package made for another Vigil
	// version (422).
	CodeIncompatiblePackage = "incompatible_package"
	// CodeInvalidPackage refuses a package whose manifest or signature is
	// unusable (422).
	CodeInvalidPackage = "invalid_package"
	// CodeBuiltinPackage refuses to remove or replace the built-in
	// content package (409).
	CodeBuiltinPackage = "builtin_package"
)

// packageBodyLimit is the body limit of the routes that take a whole
// package: the package limit plus room for the request around it.
const packageBodyLimit = content.MaxSize + 64<<10

// registerPackages adds the content package routes (under /api/v1, as
// the SPEC shows them): seniors validate and export, managers import and
// remove.
func registerPackages(a *routes, s *server) {
	const (
		viewer, senior, manager = store.RoleViewer, store.RoleSenior, store.RoleManager
		get, post, del          = http.MethodGet, http.MethodPost, http.MethodDelete
	)
	a.handle(Route{get, "/v1/packages", viewer, ScopeRead, LimitRead, ""}, s.listPackages)
	a.handle(Route{post, "/v1/packages/validate", senior, ScopeRead, LimitWrite, "package.validate"}, s.validatePackage)
	a.handle(Route{post, "/v1/packages/import", manager, ScopeWrite, LimitWrite, "package.import"}, s.importPackage)
	a.handle(Route{post, "/v1/packages/export/playbook/:playbook_id", senior, ScopeRead, LimitWrite, "package.export"}, s.exportPlaybookPackage)
	a.handle(Route{post, "/v1/packages/export/hunt/:hunt_id", senior, ScopeRead, LimitWrite, "package.export"}, s.exportHuntPackage)
	a.handle(Route{get, "/v1/packages/:name", viewer, ScopeRead, LimitRead, ""}, s.getPackage)
	a.handle(Route{del, "/v1/packages/:name", manager, ScopeWrite, LimitWrite, "package.delete"}, s.deletePackage)
	registerKnowledge(a, s)
}

// bodyLimitFor is the body limit of a route: larger for whole packages.
func (s *server) bodyLimitFor(fullPath string) int64 {
	// The dashboard's import forms post whole packages too.
	isPackage := strings.HasPrefix(fullPath, "/api/v1/packages/") || fullPath == "/packages/preview" || fullPath == "/packages/import"
	if isPackage && s.opts.MaxBodyBytes < packageBodyLimit {
		return packageBodyLimit
	}
	return s.opts.MaxBodyBytes
}

// readBody reads the whole request body, answering 413 past the limit.
func readBody(c *gin.Context) ([]byte, error) {
	body, err := io.ReadAll(c.Request.Body)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, err
		}
		return nil, newError(http.StatusBadRequest, CodeBadRequest, "could not read request body")
	}
	if hasNUL(body) {
		return nil, errNUL
	}
	return body, nil
}

// validationOptions are the checks this installation makes beyond the
// package itself: its version, its signature policy, the queries
// installed here.
func (s *server) validationOptions(ctx context.Context) (content.Options, error) {
	opts := content.Options{ServiceVersion: s.opts.Version, KnownQuery: func(id string) bool {
		_, err := s.store.GetPackageQuery(ctx, id)
		return err == nil
	}}
	if s.settings != nil {
		pol, err := s.settings.Packages(ctx)
		if err != nil {
			return opts, err
		}
		opts.RequireSignature = pol.RequireSignature
		for _, k := range pol.Keys() {
			opts.TrustedKeys = append(opts.TrustedKeys, content.TrustedKey{Name: k.Name, PublicKey: k.PublicKey})
		}
	}
	return opts, nil
}

// checkPackage decodes and validates raw, mapping a text that is no
// package at all to its status: 413 too large, 422 too many items, 400
// unreadable.
func (s *server) checkPackage(ctx context.Context, raw []byte) (*content.Package, content.Report, error) {
	opts, err := s.validationOptions(ctx)
	if err != nil {
		return nil, content.Report{}, err
	}
	p, rep, err := content.Check(raw, opts)
	switch {
	case errors.Is(err, content.ErrTooLarge):
		return nil, rep, newError(http.StatusRequestEntityTooLarge, CodeTooLarge, err.Error())
	case errors.Is(err, content.ErrTooManyItems):
		return nil, rep, &Error{Status: http.StatusUnprocessableEntity, Code: CodeInvalidPackage, Message: err.Error(),
			Details: map[string]any{"max_items": content.MaxItems}}
	case err != nil:
		return nil, rep, newError(http.StatusBadRequest, CodeMalformedJSON, err.Error())
	}
	if rep.Errors == nil {
		rep.Errors = []content.Problem{}
	}
	return p, rep, nil
}

func (s *server) validatePackage(c *gin.Context) (reply, error) {
	body, err := readBody(c)
	if err != nil {
		return reply{}, err
	}
	_, rep, err := s.checkPackage(c, body)
	if err != nil {
		return reply{}, err
	}
	return ok(rep), nil
}

// importRequest is the import body: the package and what to do on name
// conflicts; dry_run answers the outcome without writing it.
type importRequest struct {
	Package            json.RawMessage `json:"package"`
	ConflictResolution string          `json:"conflict_resolution"`
	DryRun             bool            `json:"dry_run"`
}

func (s *server) importPackage(c *gin.Context) (reply, error) {
	var req importRequest
	if err := decodeJSON(c, &req, false); err != nil {
		return reply{}, err
	}
	if req.ConflictResolution == "" {
		req.ConflictResolution = string(content.ConflictSkip)
	}
	modes := []string{string(content.ConflictSkip), string(content.ConflictOverwrite), string(content.ConflictRename)}
	if !slices.Contains(modes, req.ConflictResolution) {
		return reply{}, validationError(map[string]string{"conflict_resolution": "must be one of skip, overwrite, rename"})
	}
	if len(req.Package) == 0 || string(req.Package) == "null" {
		return reply{}, validationError(map[string]string{"package": "is required: {manifest, contents}"})
	}
	p, rep, err := s.checkPackage(c, req.Package)
	if err != nil {
		return reply{}, err
	}
	if rep.Incompatible != nil {
		return reply{}, &Error{Status: http.StatusUnprocessableEntity, Code: CodeIncompatiblePackage,
			Message: rep.Incompatible.Error(), Details: map[string]any{"compatibility": rep.Incompatible.Constraint,
				"running_version": rep.Incompatible.Running}}
	}
	if rep.PackageError {
		return reply{}, &Error{Status: http.StatusUnprocessableEntity, Code: CodeInvalidPackage,
			Message: "package does not validate", Details: map[string]any{"errors": rep.Errors, "warnings": rep.Warnings}}
	}
	res, err := content.Install(c, s.store, p, rep, content.InstallOptions{Conflict: content.Conflict(req.ConflictResolution),
		By: principal(c).User.Username, DryRun: req.DryRun})
	if errors.Is(err, content.ErrBuiltinPackage) {
		return reply{}, newError(http.StatusConflict, CodeBuiltinPackage, err.Error())
	}
	if err != nil {
		return reply{}, err
	}
	if !req.DryRun {
		setAuditTarget(c, p.Manifest.Name)
		setAuditDetails(c, map[string]any{"version": p.Manifest.Version, "imported": res.Imported, "skipped": res.Skipped,
			"conflict_resolution": req.ConflictResolution})
		for _, id := range res.HuntIDs() {
			if h, err := s.store.GetHunt(c, id); err == nil {
				if err := s.syncSchedule(c, h); err != nil {
					s.log.WarnContext(c, "sync schedule of imported hunt", "hunt_id", id, "err", err)
				}
			}
		}
	}
	return ok(gin.H{"imported": res.Imported, "skipped": res.Skipped, "errors": res.Errors, "warnings": rep.Warnings,
		"items": res.Items, "previous": orEmpty(res.Previous), "upgraded_from": res.Upgraded,
		"package": gin.H{"name": p.Manifest.Name, "version": p.Manifest.Version}, "dry_run": req.DryRun}), nil
}
