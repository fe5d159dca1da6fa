package triage

import (
	"regexp"
	"strings"
)

// fileHosts are anonymous or personal file-transfer services: anyone can
// upload without a company account, and links outlive any control.
var fileHosts = setOf("mega.nz", "mega.io", "file.io", "wetransfer.com", "we.tl", "sendspace.com", "gofile.io", "transfer.sh", "anonfiles.com", "pixeldrain.com", "mediafire.com", "filebin.net", "catbox.moe", "temp.sh", "dropmefiles.com", "uploadfiles.io", "send.vis.ee", "swisstransfer.com", "pastebin.com")

// genAIHosts are generative-AI chat services.
var genAIHosts = setOf("chatgpt.com", "openai.com", "claude.ai", "gemini.google.com", "perplexity.ai", "deepseek.com", "poe.com", "character.ai", "copilot.microsoft.com", "mistral.ai")

var ssnRe = regexp.MustCompile(`\b(\d{3})-(\d{2})-(\d{4})\b`)

// readDataDestination classifies where the data went (a file host, an AI
// chat, an unsanctioned or personal instance, a contracted partner) and
// whether the matched data is synthetic.
func readDataDestination(f *DataFields, d *doc, destDomain string) {
	var hosts []string
	for _, h := range d.scalarStrs("targetdomain", "hostname", "site", "destinationdomain", "domain", "url", "targeturl", "host") {
		h = strings.ToLower(strings.TrimSpace(h))
		h = strings.TrimPrefix(strings.TrimPrefix(h, "https://"), "http://")
		h, _, _ = strings.Cut(h, "/")
		if h != "" {
			hosts = append(hosts, registrableDomain(h), h)
		}
	}
	hosts = append(hosts, destDomain)
	for _, h := range hosts {
		f.FileHost = f.FileHost || fileHosts[h]
		f.GenAI = f.GenAI || genAIHosts[h]
	}
	category := lowerJoin(d.scalarStrs("urlcategory", "appcategory", "category", "appcat", "destinationcategory"))
	f.FileHost = f.FileHost || containsAnyTerm(category, "file host", "file sharing", "file transfer", "online storage")
	f.GenAI = f.GenAI || containsAnyTerm(category, "generative ai", "genai", "ai chat")
	instance := lowerJoin(d.scalarStrs("instanceid", "instancename", "instancetype", "accounttype"))
	if containsTerm(instance, "personal") {
		f.Personal = true
	}
	class := normKey(lowerJoin(d.scalarStrs("appclass", "appinstancetag", "instancetag", "apptag", "appsanctioned", "policyname", "policy", "rulename")))
	f.Unsanctioned = strings.Contains(class, "unsanctioned") || strings.Contains(class, "unallowed") || strings.Contains(class, "unapproved")
	// A yes or no on the instance (Netskope's sanctioned_instance).
	if v, ok := d.boolean("sanctionedinstance", "instancesanctioned", "issanctioned"); ok {
		f.Sanctioned, f.Unsanctioned = f.Sanctioned || v, f.Unsanctioned || !v
	}
	if f.FileHost && (f.Unsanctioned || fileHosts[destDomain]) {
		f.Personal = true
	}
	f.BusinessPartner = affirmedPhrase(d.text, "contracted", "card acquirer", "merchant services provider", "sharing allowlist", "trusted domain", "approved vendor", "contracted vendor") != ""
	if f.BusinessPartner && !f.FileHost && !f.GenAI {
		f.Sanctioned = true
	}
	f.PublicLink = containsAnyTerm(d.compactText(), "anonymouslink", "anyonewiththelink", "publiclink", "sharedpublicly", "publicontheweb")
	f.SyntheticData = unissuableSSNsOnly(d.text) || affirmedPhrase(d.text, "synthetic", "generated with faker", "no real customer data", "dummy data", "test fixtures") != ""
}

// unissuableSSNsOnly reports whether text shows social security numbers
// and none could belong to a person: area 000, 666 or 900-999, group 00,
// serial 0000, or the 987-65-4320..4329 range reserved for advertising.
func unissuableSSNsOnly(text string) bool {
	found := false
	for _, m := range ssnRe.FindAllStringSubmatch(text, -1) {
		area, group, serial := m[1], m[2], m[3]
		unissuable := area == "000" || area == "666" || area[0] == '9' || group == "00" || serial == "0000"
		if !unissuable {
			return false
		}
		found = true
	}
	return found
}

// dlpProbeHit reports whether the keys that mark a DLP record hold a
// finding: Zscaler and Netskope records carry their DLP fields on every
// event, "None" or empty when no rule fired.
func dlpProbeHit(d *doc, keys []string) bool {
	for _, v := range d.values(keys...) {
		switch t := v.(type) {
		case string:
			if t = strings.ToLower(strings.TrimSpace(t)); t != "" && t != "none" && t != "na" && t != "n/a" {
				return true
			}
		case nil:
		case []any:
			if len(t) > 0 {
				return true
			}
		case map[string]any:
			if len(t) > 0 {
				return true
			}
		default:
			return true
		}
	}
	return false
}
