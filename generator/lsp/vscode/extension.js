// Starts `triplea-gen lsp` for the YAML files of the workspace; everything else is the server's.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const folder = vscode.workspace.workspaceFolders ? vscode.workspace.workspaceFolders[0].uri.fsPath : "";
  const [command, ...args] = vscode.workspace.getConfiguration("triplea-gen").get("command")
    .map((part) => part.replace("${workspaceFolder}", folder));
  client = new LanguageClient(
    "triplea-gen", "triplea-gen",
    { command, args, options: { cwd: folder || undefined } },
    { documentSelector: [{ scheme: "file", language: "yaml" }, { scheme: "file", pattern: "**/games/*.xml" }] },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
