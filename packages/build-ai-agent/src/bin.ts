#!/usr/bin/env node
// The `lousho` command, also reachable through this package.
import { runCli } from '@lousho/cli';

process.exitCode = await runCli(process.argv.slice(2));
