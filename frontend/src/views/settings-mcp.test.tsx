import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

// The MCP section talks only to ../api; replace it with a fake backend.
const fake = vi.hoisted(() => ({
  mcpConfig: vi.fn(async () => ({
    name: "cairn-sample",
    command: "/opt/cairn/cairn",
    args: ["mcp", "--project", "/home/u/.local/share/cairn/projects/Sample"],
    project: "/home/u/.local/share/cairn/projects/Sample",
    snippet: '{\n  "mcpServers": {\n    "cairn-sample": {\n      "command": "/opt/cairn/cairn",\n      "args": ["mcp", "--project", "/home/u/.local/share/cairn/projects/Sample"]\n    }\n  }\n}',
  })),
}));

vi.mock("../api", () => ({
  api: fake,
  errorMessage: (e: unknown) => String(e),
  onEvent: () => () => {},
}));

import { McpSnippet } from "./Settings";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("McpSnippet", () => {
  it("shows the configuration for the open project and copies it", async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    render(<McpSnippet />);
    const pre = await screen.findByTestId("mcp-snippet");
    const cfg = JSON.parse(pre.textContent ?? "");
    expect(cfg.mcpServers["cairn-sample"].command).toBe("/opt/cairn/cairn");
    expect(cfg.mcpServers["cairn-sample"].args).toEqual(["mcp", "--project", "/home/u/.local/share/cairn/projects/Sample"]);
    await act(async () => {
      fireEvent.click(screen.getByTestId("mcp-copy"));
    });
    expect(writeText).toHaveBeenCalledWith(pre.textContent);
    await waitFor(() => expect(screen.getByTestId("mcp-copy").textContent).toBe("Copied"));
  });

  it("says why when the backend has no MCP configuration", async () => {
    fake.mcpConfig.mockRejectedValueOnce("This version of Cairn has no MCPConfig.");
    render(<McpSnippet />);
    expect(await screen.findByText(/no MCPConfig/)).toBeTruthy();
    expect((screen.getByTestId("mcp-copy") as HTMLButtonElement).disabled).toBe(true);
  });
});
