package main

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/spf13/cobra"
)

// probeCommand checks a health endpoint and exits 0 when it answers 2xx.
// Container images without a shell or curl use it as their health check.
func probeCommand() *cobra.Command {
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:     "probe URL",
		Short:   "exit 0 when URL answers 2xx (container health checks)",
		Example: "  vigil probe http://127.0.0.1:8080/ready",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, args[0], nil)
			if err != nil {
				return err
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				return err
			}
			res.Body.Close()
			if res.StatusCode < 200 || res.StatusCode > 299 {
				return fmt.Errorf("%s answered %s", args[0], res.Status)
			}
			return nil
		},
	}
	cmd.Flags().DurationVar(&timeout, "timeout", 3*time.Second, "give up after this long")
	return cmd
}
