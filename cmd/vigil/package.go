package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/vigil-soc/vigil/app"
	"github.com/vigil-soc/vigil/content"
	"github.com/vigil-soc/vigil/settings"
	"github.com/vigil-soc/vigil/store"
)

// errPackageInvalid makes the process exit 1 after the findings were
// printed.
var errPackageInvalid = errors.New("package validation failed")

// packageCommand groups the content package tools for content
// repositories: build a folder into a package, validate, sign, export.
func packageCommand() *cobra.Command {
	return groupCommand("package", "build, check, sign and export content packages",
		packageBuildCommand(), packageValidateCommand(), packageSignCommand(), packageKeygenCommand(), packageExportCommand())
}

func packageBuildCommand() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "build DIR",
		Short: "build a package folder (manifest.yaml plus YAML and Markdown files) into package JSON",
		Long: `Build a package folder into the JSON the import API takes. The folder holds
manifest.yaml, playbooks/*.yaml, hunts/*.yaml, queries/*.yaml and
knowledge/*.md. The package is validated first; findings print as
FILE:LINE: message and errors exit 1 without writing anything.`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			p, err := checkSource(args[0], content.Options{ServiceVersion: app.Version})
			if err != nil {
				return err
			}
			return writeJSON(out, p)
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "file to write (default standard output)")
	return cmd
}

func packageValidateCommand() *cobra.Command {
	var require bool
	var trusted []string
	cmd := &cobra.Command{
		Use:   "validate FILE|DIR",
		Short: "check a package JSON file or package folder (exit 1 on errors)",
		Long: `Check a package offline, printing findings as FILE:LINE: message (or
contents[N].field: message for JSON files). Exits 1 when there are errors.`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			opts := content.Options{ServiceVersion: app.Version, RequireSignature: require}
			for _, t := range trusted {
				k, ok := settings.ParseTrustedKey(t)
				if !ok {
					return fmt.Errorf("--trusted-key %q: write NAME=BASE64_PUBLIC_KEY", t)
				}
				opts.TrustedKeys = append(opts.TrustedKeys, content.TrustedKey{Name: k.Name, PublicKey: k.PublicKey})
			}
			p, err := checkSource(args[0], opts)
			if err != nil {
				return err
			}
			fmt.Printf("%s: valid (%d items)\n", args[0], len(p.Contents))
			return nil
		},
	}
	cmd.Flags().BoolVar(&require, "require-signature", false, "fail unless signed by a trusted key")
	cmd.Flags().StringArrayVar(&trusted, "trusted-key", nil, "NAME=BASE64 public key to accept signatures from (repeatable)")
	return cmd
}

// checkSource reads a package file or folder, prints its findings and
// returns it when it has no errors.
func checkSource(path string, opts content.Options) (*content.Package, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	var text []byte
	var early []content.Problem
	if info.IsDir() {
		f, problems, err := content.BuildFolder(path)
		if err != nil {
			return nil, err
		}
		text, early = f.JSON, problems
		opts.Sources, opts.Manifest = f.Sources, &f.Manifest
	} else if text, err = os.ReadFile(path); err != nil {
		return nil, err
	}
	p, rep, err := content.Check(text, opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, pr := range append(early, rep.Errors...) {
		if pr.File == "" {
			pr.File = path
		}
		fmt.Printf("%s\n", strings.Replace(pr.String(), ": ", ": error: ", 1))
	}
	for _, w := range rep.Warnings {
		fmt.Printf("%s: warning: %s\n", path, w)
	}
	if len(early) > 0 || !rep.Valid {
		return nil, errPackageInvalid
	}
	return p, nil
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return writeOutput(path, append(b, '\n'))
}

// writeOutput writes b to the file at path, or to standard output when path
// is empty.
func writeOutput(path string, b []byte) error {
	if path == "" {
		_, err := os.Stdout.Write(b)
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

func packageSignCommand() *cobra.Command {
	var keyFile, out string
	cmd := &cobra.Command{
		Use:   "sign --key KEY.pem PACKAGE.json",
		Short: "sign a package JSON file with an ed25519 key (PKCS #8 PEM)",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			pemText, err := os.ReadFile(keyFile)
			if err != nil {
				return err
			}
			key, err := content.ParsePrivateKey(pemText)
			if err != nil {
				return err
			}
			p, err := checkSource(args[0], content.Options{ServiceVersion: app.Version})
			if err != nil {
				return err
			}
			if err := content.Sign(p, key); err != nil {
				return err
			}
			if out == "" {
				out = args[0]
			}
			return writeJSON(out, p)
		},
	}
	cmd.Flags().StringVar(&keyFile, "key", "", "ed25519 private key, PKCS #8 PEM (required)")
	cmd.Flags().StringVarP(&out, "output", "o", "", "file to write (default: sign in place)")
	_ = cmd.MarkFlagRequired("key")
	return cmd
}

func packageKeygenCommand() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "keygen --out KEY.pem",
		Short: "make an ed25519 signing key and print its public key for the trusted keys setting",
		Args:  cobra.NoArgs,
		RunE: func(_ *cobra.Command, _ []string) error {
			pub, priv, err := ed25519.GenerateKey(rand.Reader)
			if err != nil {
				return err
			}
			pemText, err := content.MarshalPrivateKey(priv)
			if err != nil {
				return err
			}
			if err := os.WriteFile(out, pemText, 0o600); err != nil {
				return err
			}
			fmt.Printf("wrote %s\npublic key: %s\n", out, base64.StdEncoding.EncodeToString(pub))
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "file to write the private key to (required)")
	_ = cmd.MarkFlagRequired("out")
	return cmd
}

func packageExportCommand() *cobra.Command {
	var m content.Manifest
	var out string
	cmd := &cobra.Command{
		Use:       "export playbook|hunt NAME",
		Short:     "export a playbook or hunt from the database as a package",
		Args:      cobra.ExactArgs(2),
		ValidArgs: []string{"playbook", "hunt"},
		RunE: func(cmd *cobra.Command, args []string) error {
			return withStore(cmd, false, func(ctx context.Context, st *store.Store) error {
				it, err := exportItem(ctx, st, args[0], args[1])
				if err != nil {
					return err
				}
				if m.Name == "" {
					m.Name = slugName(args[1])
				}
				p := content.ExportOne(m, it)
				rep := content.Validate(p, nil, content.Options{ServiceVersion: app.Version})
				for _, pr := range rep.Errors {
					fmt.Fprintf(os.Stderr, "error: %s\n", pr)
				}
				if !rep.Valid {
					return errPackageInvalid
				}
				return writeJSON(out, p)
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&m.Name, "name", "", "package name (default: from the item's name)")
	f.StringVar(&m.Version, "version", "1.0.0", "package version (semantic)")
	f.StringVar(&m.Description, "description", "", "package description")
	f.StringVar(&m.Author, "author", "", "package author")
	f.StringVar(&m.License, "license", "", "license identifier")
	f.StringVar(&m.Compatibility, "compatibility", "", "Vigil versions the package works with, e.g. >=2.0.0")
	f.StringVarP(&out, "output", "o", "", "file to write (default standard output)")
	return cmd
}

func exportItem(ctx context.Context, st *store.Store, kind, name string) (content.Item, error) {
	switch kind {
	case "playbook":
		p, err := st.PlaybookByName(ctx, name)
		if err != nil {
			return content.Item{}, fmt.Errorf("playbook %q: %w", name, err)
		}
		return content.PlaybookItem(ctx, st, p.ID)
	case "hunt":
		h, err := st.HuntByName(ctx, name)
		if err != nil {
			return content.Item{}, fmt.Errorf("hunt %q: %w", name, err)
		}
		return content.HuntItem(ctx, st, h.ID)
	}
	return content.Item{}, fmt.Errorf("export playbook or hunt, not %q", kind)
}

// slugName makes a package name from an item name.
func slugName(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-")
}
