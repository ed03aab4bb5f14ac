/**
 * The turn budget (src/http/turn-budget.ts) on real TCP connections: past its requests per turn
 * a connection stops being read, and later turns resume the parked ones, the longest parked
 * first, a turn's budget at a time. Turns are driven by hand, so nothing depends on timing.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { TurnBudget, requestsPerTurn } from '../../src/http/turn-budget.js';

interface Pair {
  readonly client: net.Socket;
  readonly server: net.Socket;
}

describe('turn budget', () => {
  let listener: net.Server;
  const accepted: net.Socket[] = [];
  const waiting: ((socket: net.Socket) => void)[] = [];

  before(async () => {
    listener = net.createServer((socket) => {
      const next = waiting.shift();
      if (next) next(socket);
      else accepted.push(socket);
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  });
  after(() => listener.close());

  async function pair(): Promise<Pair> {
    const server = new Promise<net.Socket>((resolve) => waiting.push(resolve));
    const { port } = listener.address() as net.AddressInfo;
    const client = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => client.once('connect', resolve));
    return { client, server: await server };
  }

  const reading = (socket: net.Socket) => (socket as unknown as { _handle: { reading: boolean } })._handle.reading;
  const received = (socket: net.Socket) => new Promise<string>((resolve) => socket.once('data', (d) => resolve(d.toString())));

  it('parks connections past the budget and resumes them in order, a budget at a time', async () => {
    const turns: (() => void)[] = [];
    const budget = new TurnBudget(1, (callback) => turns.push(callback));
    const [a, b, c] = [await pair(), await pair(), await pair()];
    for (const { server } of [a, b, c]) server.resume();

    budget.count(a.server); // within the budget
    budget.count(b.server);
    budget.count(c.server);
    assert.equal(budget.waiting, 2);
    assert.equal(reading(a.server), true);
    assert.equal(reading(b.server), false);
    assert.equal(reading(c.server), false);
    assert.equal(turns.length, 1, 'one turn scheduled');

    turns.shift()!();
    assert.equal(reading(b.server), true, 'the longest parked resumes first');
    assert.equal(reading(c.server), false);
    assert.equal(budget.waiting, 1);
    const gotB = received(b.server);
    b.client.write('next request');
    assert.equal(await gotB, 'next request', 'a resumed connection is read again');

    assert.equal(turns.length, 1, 'another turn while connections wait');
    turns.shift()!();
    assert.equal(reading(c.server), true);
    assert.equal(budget.waiting, 0);
    const gotC = received(c.server);
    c.client.write('its turn');
    assert.equal(await gotC, 'its turn');
    assert.equal(turns.length, 0, 'no turn scheduled when none waits');
    for (const { client } of [a, b, c]) client.destroy();
  });

  it('while connections wait, a request within the budget parks its connection behind them', async () => {
    const turns: (() => void)[] = [];
    const budget = new TurnBudget(2, (callback) => turns.push(callback));
    const [a, b, c, d] = [await pair(), await pair(), await pair(), await pair()];
    budget.count(a.server);
    budget.count(b.server);
    budget.count(c.server); // past the budget: parked
    turns.shift()!(); // a new turn: c resumes
    assert.equal(budget.waiting, 0);
    budget.count(d.server);
    assert.equal(reading(d.server), true, 'nothing waits: within the budget');
    budget.count(a.server);
    budget.count(b.server); // the turn's third: parked
    budget.count(c.server); // parked behind b
    assert.equal(budget.waiting, 2);
    turns.shift()!();
    assert.equal(reading(b.server), true);
    assert.equal(reading(c.server), true);
    for (const { client } of [a, b, c, d]) client.destroy();
  });

  it('skips a parked connection that closed meanwhile', async () => {
    const turns: (() => void)[] = [];
    const budget = new TurnBudget(1, (callback) => turns.push(callback));
    const [a, b, c] = [await pair(), await pair(), await pair()];
    budget.count(a.server);
    budget.count(b.server);
    budget.count(c.server);
    const closed = new Promise((resolve) => b.server.once('close', resolve));
    b.server.destroy();
    await closed;
    turns.shift()!();
    assert.equal(reading(c.server), true, 'the next parked one takes the closed one’s place');
    assert.equal(budget.waiting, 0);
    for (const { client } of [a, b, c]) client.destroy();
  });

  it('leaves alone a connection that is not being read (Node stops reading a client that does not read its answers)', async () => {
    const turns: (() => void)[] = [];
    const budget = new TurnBudget(1, (callback) => turns.push(callback));
    const [a, b] = [await pair(), await pair()];
    b.server.pause();
    const handle = (b.server as unknown as { _handle: { reading: boolean; readStop(): number } })._handle;
    handle.readStop();
    handle.reading = false;
    budget.count(a.server);
    budget.count(b.server);
    assert.equal(budget.waiting, 0, 'not parked');
    turns.shift()!();
    assert.equal(reading(b.server), false, 'and not resumed by a turn');
    for (const { client } of [a, b]) client.destroy();
  });

  it('reads at most half the requests a connection may carry per turn, at most 32', () => {
    assert.equal(requestsPerTurn(100), 32);
    assert.equal(requestsPerTurn(40), 20);
    assert.equal(requestsPerTurn(2), 1);
    assert.equal(requestsPerTurn(1), 1);
  });
});
