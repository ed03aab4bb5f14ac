/** Small helpers: formatting, percentiles, child processes, ports, versions. */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ROOT } from './config.mjs';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
export const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : '–');
export const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : '–');
export const ms = (x) => (Number.isFinite(x) ? x.toFixed(2) : '–');
export const int = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en') : '–');
export const pct = (x) => (Number.isFinite(x) ? `${Math.round(x * 100)}%` : '–');
export const mb = (kb) => (Number.isFinite(kb) ? (kb / 1024).toFixed(0) : '–');

/**
 * The cores' time so far, from /proc/stat's `cpu` line (in clock ticks): all of it and the part
 * stolen by the hypervisor for other guests; null where there is no /proc/stat.
 */
export function cpuTimes() {
  try {
    const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already in user)
    return { total: fields.slice(0, 8).reduce((a, b) => a + b, 0), steal: fields[7] ?? 0 };
  } catch {
    return null;
  }
}

/** The share (0–1) of the cores' time stolen between two cpuTimes() readings, or null. */
export function stealShare(before, after) {
  if (!before || !after || after.total <= before.total) return null;
  return (after.steal - before.steal) / (after.total - before.total);
}

/**
 * Linux's autogroup scheduling (`kernel.sched_autogroup_enabled`): 'on', 'off', or null where the
 * kernel has no such setting. When on, the CPU is shared first between sessions, and every
 * PostgreSQL backend belongs to the postmaster's session: on cores shared with the server under
 * test and wrk, all of PostgreSQL gets one session's share, and a busy backend (a pipelined
 * connection's) waits tens of milliseconds for its turn (bench/README.md#the-machine).
 */
export function autogroup() {
  try {
    return fs.readFileSync('/proc/sys/kernel/sched_autogroup_enabled', 'utf8').trim() === '0' ? 'off' : 'on';
  } catch {
    return null;
  }
}

export function procStatus(pid) {
  try {
    const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k) => Number((text.match(new RegExp(`^${k}:\\s+(\\d+)`, 'm')) ?? [])[1]);
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return null;
  }
}

/** Runs a child process, sampling its peak RSS; resolves with its exit code, time and output. */
export function runChild(cmd, args, env) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    let peakKb = 0;
    const timer = setInterval(() => {
      const s = procStatus(child.pid);
      if (s) peakKb = Math.max(peakKb, s.hwm || 0, s.rss || 0);
    }, 250);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(timer);
      resolve({ code, ms: Date.now() - started, peakKb, out });
    });
  });
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export async function waitReady(url, child, seconds = 120) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early with code ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.status === 200) return;
    } catch {}
    await sleep(200);
  }
  throw new Error(`${url} not ready after ${seconds} s`);
}

const startIn = (cmd, args, env) => spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] });

export const startProcess = (args, env) => startIn(process.execPath, args, env);

/** `lineup ARGS` run as the command itself (bin/lineup.js and its shebang's V8 flags), as `npx lineup` runs it. */
export const startLineup = (args, env) => startIn(path.join(ROOT, 'bin', 'lineup.js'), args, env);

export async function stopProcess(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(10_000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

export function versionOf(pkg) {
  try {
    return JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).version;
  } catch {
    return '?';
  }
}

