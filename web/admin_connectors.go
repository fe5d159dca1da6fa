package web

import (
	"net/http"
	"net/url"
	"slices"

	"github.com/gin-gonic/gin"
)

// connectorField is a vendor field as GET /api/connectors/vendors lists it.
type connectorField struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Required    bool   `json:"required"`
	Secret      bool   `json:"secret"`
	Default     string `json:"default"`
}

// connectorVendor is a connector type the build offers.
type connectorVendor struct {
	Type   string           `json:"type"`
	Title  string           `json:"title"`
	Kinds  []string         `json:"kinds"`
	Fields []connectorField `json:"fields"`
}

// connectorStatus is a connector's health or test outcome.
type connectorStatus struct {
	Status  string `json:"status"`
	Message string `json:"message"`
}

// connectorView is a connector as GET /api/connectors lists it.
type connectorView struct {
	ID         string            `json:"id"`
	Type       string            `json:"type"`
	Title      string            `json:"title"`
	Kinds      []string          `json:"kinds"`
	Serves     []string          `json:"serves"`
	Settings   map[string]string `json:"settings"`
	SecretsSet []string          `json:"secrets_set"`
	Simulated  bool              `json:"simulated"`
	Builtin    bool              `json:"builtin"`
	Health     connectorStatus   `json:"health"`
	Vendor     *connectorVendor  `json:"-"`
}

// Serving reports whether the connector is chosen for kind.
func (c connectorView) Serving(kind string) bool { return slices.Contains(c.Serves, kind) }

// SecretSet reports whether the named secret is stored.
func (c connectorView) SecretSet(name string) bool { return slices.Contains(c.SecretsSet, name) }

// connectorForm is what the connector fields template shows: the
// connector being edited (nil when adding one), its vendor and the form key.
type connectorForm struct {
	C   *connectorView
	V   *connectorVendor
	Key string
}

// Form is the edit form of a configured connector.
func (c connectorView) Form(key string) connectorForm {
	return connectorForm{C: &c, V: c.Vendor, Key: key}
}

// Form is the form adding a connector of this type.
func (v connectorVendor) Form() connectorForm { return connectorForm{V: &v, Key: "connector-new"} }

type connectorsData struct {
	Connectors []connectorView
	Vendors    []connectorVendor
	// New is the type of a connector being added (?new=type).
	New *connectorVendor
	// Tested is the outcome of a test just run (?tested=id).
	Tested, TestStatus, TestMessage string
}

func (d *Dashboard) adminConnectors(c *gin.Context, v *view) (string, error) {
	v.Title, v.Nav = "Connectors", "admin"
	data := &connectorsData{Tested: c.Query("tested"), TestStatus: c.Query("status"), TestMessage: c.Query("message")}
	var list struct {
		Connectors []connectorView `json:"connectors"`
	}
	if err := d.api.callRaw(c.Request, http.MethodGet, "/api/connectors", &list); err != nil {
		return "", err
	}
	var vendors struct {
		Vendors []connectorVendor `json:"vendors"`
	}
	if err := d.api.callRaw(c.Request, http.MethodGet, "/api/connectors/vendors", &vendors); err != nil {
		return "", err
	}
	data.Vendors = vendors.Vendors
	for i := range data.Vendors {
		if data.Vendors[i].Type == c.Query("new") {
			data.New = &data.Vendors[i]
		}
	}
	for _, conn := range list.Connectors {
		for i := range data.Vendors {
			if data.Vendors[i].Type == conn.Type {
				conn.Vendor = &data.Vendors[i]
			}
		}
		data.Connectors = append(data.Connectors, conn)
	}
	v.Data = data
	return "adminconnectors", nil
}

// saveConnector writes one connector from its form: settings from f_*,
// secrets from s_* (an empty box keeps the stored secret), kinds served
// from the serves checkboxes.
func (d *Dashboard) saveConnector(c *gin.Context, _ *view) (string, error) {
	id := c.Param("id")
	if id == "new" {
		id = c.PostForm("id")
	}
	var vendors struct {
		Vendors []connectorVendor `json:"vendors"`
	}
	if err := d.api.callRaw(c.Request, http.MethodGet, "/api/connectors/vendors", &vendors); err != nil {
		return "", err
	}
	typ := c.PostForm("type")
	settings, secrets := map[string]string{}, map[string]string{}
	for _, vendor := range vendors.Vendors {
		if vendor.Type != typ {
			continue
		}
		for _, f := range vendor.Fields {
			switch {
			case !f.Secret:
				settings[f.Name] = c.PostForm("f_" + f.Name)
			case c.PostForm("clear_"+f.Name) == "true":
				secrets[f.Name] = ""
			case c.PostForm("s_"+f.Name) != "":
				secrets[f.Name] = c.PostForm("s_" + f.Name)
			}
		}
	}
	serves := c.PostFormArray("serves")
	if serves == nil {
		serves = []string{}
	}
	body := map[string]any{"type": typ, "settings": settings, "secrets": secrets, "serves": serves}
	if err := d.api.call(c.Request, http.MethodPut, "/api/connectors/"+url.PathEscape(id), body, nil); err != nil {
		return "", err
	}
	return "/admin/connectors?done=saved#connector-" + url.QueryEscape(id), nil
}

// testConnector runs the connector's test call and shows its outcome.
func (d *Dashboard) testConnector(c *gin.Context, _ *view) (string, error) {
	id := c.Param("id")
	var h connectorStatus
	if err := d.api.callRaw(c.Request, http.MethodPost, "/api/connectors/"+url.PathEscape(id)+"/test", &h); err != nil {
		return "", err
	}
	q := url.Values{"tested": {id}, "status": {h.Status}, "message": {h.Message}}
	return "/admin/connectors?" + q.Encode() + "#connector-" + url.QueryEscape(id), nil
}

func (d *Dashboard) deleteConnector(c *gin.Context, _ *view) (string, error) {
	err := d.api.call(c.Request, http.MethodDelete, "/api/connectors/"+url.PathEscape(c.Param("id")), nil, nil)
	return "/admin/connectors?done=deleted", err
}
