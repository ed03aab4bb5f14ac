/**
 * The last stages every resource read other than the Events collection shares:
 * [compact boundary] → page rows (and the parent's existence) → projection → envelope → ETag/304, and
 * detail row → projection → envelope → ETag/304 (404 `no-store` when absent or inactive).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseQueryString, searchOf, type RawQuery } from '../../controls/query-string.js';
import type { ListPlan } from '../../plan/list.js';
import { renderDetail } from '../../present/detail.js';
import { renderListPage } from '../../present/list-page.js';
import { readListPage, type ListRow, type SourceBuilder } from '../../queries/list.js';
import type { Parent } from '../../queries/parents.js';
import type { Statement } from '../../queries/statement.js';
import { notFound } from '../errors.js';
import { sendRendered } from '../respond.js';
import type { RouteContext } from './context.js';

export const queryOf = (request: FastifyRequest): RawQuery => parseQueryString(searchOf(request.raw.url ?? ''));

export interface ListRead<R extends ListRow> {
  readonly plan: ListPlan<unknown>;
  /** The addressed parent that must exist and be active, if any. */
  readonly parent: Parent | null;
  readonly source: SourceBuilder;
  readonly item: (row: R) => unknown;
}

export async function sendList<R extends ListRow>(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: RouteContext,
  read: ListRead<R>,
): Promise<FastifyReply> {
  const page = await ctx.read(request, (reader) => readListPage<R>(reader, read.plan, read.source, read.parent));
  return sendRendered(request, reply, renderListPage(read.plan, page, read.item));
}

export async function sendDetail<R extends ListRow>(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: RouteContext,
  statement: Statement,
  present: (row: R) => unknown,
): Promise<FastifyReply> {
  const row = await ctx.read(request, async (reader) => (await reader.rows<R>(statement))[0]);
  if (row === undefined) throw notFound();
  return sendRendered(request, reply, renderDetail(request.raw.url ?? '', row, present));
}
