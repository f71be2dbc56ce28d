/**
 * HTTP routes of playbooks (issue 46, decision 0153) under /api/v1/orgs/{orgId}/playbooks: list,
 * create, import (the published JSON Schema's document), copy a shipped starter, read, rename,
 * delete (admin), versions (create, read, edit a draft, approve: admin), export, and checks of a
 * document (create: 200 with the results, at once; list; read). Playbooks belong to the whole
 * organisation: an app-bound credential may read them and check its app's documents, never
 * write them (`app: 'organisation'`). Logic in service.ts; the check in server/playbooks/.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { principalOf } from '../../auth/principal'
import type { FeatureContext } from '../../services'
import { OrgParams } from '../../http/params'
import { PageQuery, pageOf } from '../../lists/list-kit'
import { PlaybookDocument } from '../../playbooks/positions'
import { streamResponse } from '../../http/stream-responses'
import { problemResponse } from '../../http/problem-responses'
import { fileHeaders } from '../../media/file-download'
import {
  CheckDetail,
  CheckListQuery,
  CheckParams,
  CheckSummary,
  CreateCheckBody,
  CreatePlaybookBody,
  ExportQuery,
  PlaybookDetail,
  PlaybookExport,
  PlaybookParams,
  PlaybookSummary,
  PlaybookVersion,
  PositionsBody,
  StarterParams,
  StarterSummary,
  UpdatePlaybookBody,
  VersionParams,
} from './schemas'
import {
  approveVersion,
  checkRedlineDocx,
  copyStarter,
  createCheck,
  createPlaybook,
  createVersion,
  deletePlaybook,
  exportPlaybook,
  importPlaybook,
  listChecks,
  listPlaybooks,
  listStarters,
  readCheck,
  readPlaybook,
  readVersion,
  updatePlaybook,
  updateVersion,
} from './service'

const tags = ['playbooks']
const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
/** Reading playbooks and checking documents: any member, an app-bound credential within its app. */
const member = { minRole: 'member' } as const
/** Writing the organisation's playbooks: members (drafts), never an app-bound credential. */
const memberOrganisation = { minRole: 'member', app: 'organisation' } as const
/** Approving a version and deleting a playbook: the firm's admins. */
const admin = { minRole: 'admin', app: 'organisation' } as const

export const playbookRoutes: FastifyPluginAsyncZod<FeatureContext> = async (app, { services }) => {
  const { db } = services
  const base = '/orgs/:orgId/playbooks'
  const one = `${base}/:playbookId`

  app.get(
    base,
    {
      schema: {
        operationId: 'listPlaybooks',
        tags,
        description: "The organisation's playbooks, newest first, without their versions.",
        params: OrgParams,
        querystring: PageQuery,
        response: { 200: pageOf(PlaybookSummary) },
      },
      config: member,
    },
    (req) => listPlaybooks(db, principalOf(req), req.query),
  )

  app.post(
    base,
    {
      schema: {
        operationId: 'createPlaybook',
        tags,
        description:
          'Creates an empty playbook with a draft version 1 (no positions yet: edit it with updatePlaybookVersion). Audited.',
        params: OrgParams,
        body: CreatePlaybookBody,
        response: { 201: PlaybookDetail },
      },
      config: memberOrganisation,
    },
    async (req, reply) =>
      reply.status(201).send(await createPlaybook(db, principalOf(req), req.body)),
  )

  app.post(
    `${base}/import`,
    {
      schema: {
        operationId: 'importPlaybook',
        tags,
        description:
          'Imports a playbook document (format `lexdesk-playbook/1`, validated by the JSON Schema published at /api/public/schemas/playbook.json; exportPlaybook gives one) as a new playbook whose draft version 1 holds its positions. Audited.',
        params: OrgParams,
        body: PlaybookDocument,
        response: { 201: PlaybookDetail },
      },
      config: memberOrganisation,
    },
    async (req, reply) =>
      reply.status(201).send(await importPlaybook(db, principalOf(req), req.body)),
  )

  app.get(
    `${base}/starters`,
    {
      schema: {
        operationId: 'listPlaybookStarters',
        tags,
        description:
          'The starter playbooks Lexdesk ships (a mutual NDA; a commercial supply agreement for the customer), to copy into the organisation and adapt.',
        params: OrgParams,
        response: { 200: z.object({ items: z.array(StarterSummary) }) },
      },
      config: member,
    },
    () => ({ items: listStarters() }),
  )

  app.post(
    `${base}/starters/:starter`,
    {
      schema: {
        operationId: 'copyPlaybookStarter',
        tags,
        description:
          'Copies a shipped starter into the organisation as a new playbook (a draft version 1 to adapt, then approve). Audited.',
        params: StarterParams,
        response: { 201: PlaybookDetail },
      },
      config: memberOrganisation,
    },
    async (req, reply) =>
      reply.status(201).send(await copyStarter(db, principalOf(req), req.params.starter)),
  )

  app.get(
    one,
    {
      schema: {
        operationId: 'getPlaybook',
        tags,
        description: 'A playbook with its versions (newest first; who approved which and when).',
        params: PlaybookParams,
        response: { 200: PlaybookDetail },
      },
      config: member,
    },
    (req) => readPlaybook(db, principalOf(req), req.params.playbookId),
  )

  app.patch(
    one,
    {
      schema: {
        operationId: 'updatePlaybook',
        tags,
        description: 'Renames a playbook or changes its description. Audited.',
        params: PlaybookParams,
        body: UpdatePlaybookBody,
        response: { 200: PlaybookDetail },
      },
      config: memberOrganisation,
    },
    (req) => updatePlaybook(db, principalOf(req), req.params.playbookId, req.body),
  )

  app.delete(
    one,
    {
      schema: {
        operationId: 'deletePlaybook',
        tags,
        description: 'Deletes a playbook with its versions and its checks: admins. Audited.',
        params: PlaybookParams,
        response: { 204: z.null() },
      },
      config: admin,
    },
    async (req, reply) => {
      await deletePlaybook(db, principalOf(req), req.params.playbookId)
      return reply.status(204).send(null)
    },
  )

  app.get(
    `${one}/export`,
    {
      schema: {
        operationId: 'exportPlaybook',
        tags,
        description:
          'A playbook as a playbook document (the import format, with its version number and status): `version`, else the current approved version, else the latest draft.',
        params: PlaybookParams,
        querystring: ExportQuery,
        response: { 200: PlaybookExport },
      },
      config: member,
    },
    (req) => exportPlaybook(db, principalOf(req), req.params.playbookId, req.query.version),
  )

  app.post(
    `${one}/versions`,
    {
      schema: {
        operationId: 'createPlaybookVersion',
        tags,
        description:
          'A new draft version (the next number) holding these positions; approve it to make it current. Audited.',
        params: PlaybookParams,
        body: PositionsBody,
        response: { 201: PlaybookVersion },
      },
      config: memberOrganisation,
    },
    async (req, reply) =>
      reply
        .status(201)
        .send(await createVersion(db, principalOf(req), req.params.playbookId, req.body.positions)),
  )

  app.get(
    `${one}/versions/:version`,
    {
      schema: {
        operationId: 'getPlaybookVersion',
        tags,
        description: 'One version of a playbook with its positions.',
        params: VersionParams,
        response: { 200: PlaybookVersion },
      },
      config: member,
    },
    (req) => readVersion(db, principalOf(req), req.params.playbookId, req.params.version),
  )

  app.put(
    `${one}/versions/:version`,
    {
      schema: {
        operationId: 'updatePlaybookVersion',
        tags,
        description:
          "Replaces a draft version's positions; 409 `playbook_version_approved` once it is approved (an approved version never changes). Audited.",
        params: VersionParams,
        body: PositionsBody,
        response: { 200: PlaybookVersion },
      },
      config: memberOrganisation,
    },
    (req) =>
      updateVersion(
        db,
        principalOf(req),
        req.params.playbookId,
        req.params.version,
        req.body.positions,
      ),
  )

  app.post(
    `${one}/versions/:version/approve`,
    {
      schema: {
        operationId: 'approvePlaybookVersion',
        tags,
        description:
          'Approves a draft version (recording who and when) and makes it the playbook’s current version, frozen from then on: admins. 409 `playbook_version_approved` when it already is. Audited.',
        params: VersionParams,
        response: { 200: PlaybookVersion },
      },
      config: admin,
    },
    (req) => approveVersion(db, principalOf(req), req.params.playbookId, req.params.version),
  )

  app.post(
    `${one}/checks`,
    {
      schema: {
        operationId: 'createPlaybookCheck',
        tags,
        description:
          "Checks a document against the playbook (its current approved version, or `version`) from the document's latest full analysis, and answers at once (200): per position compliant, fallback N, deviation or missing, with the passage it was decided from (offsets into the document's `content`), the rule or sample language that decided it, and a suggested redline. 409 `playbook_not_approved` without an approved version, `playbook_check_needs_analysis` when the document has no full analysis; 404 `document_not_found` when the document is not the caller's. Audited.",
        params: PlaybookParams,
        body: CreateCheckBody,
        response: { 200: CheckDetail },
      },
      config: member,
    },
    (req) => createCheck(db, principalOf(req), req.params.playbookId, req.body),
  )

  app.get(
    `${one}/checks`,
    {
      schema: {
        operationId: 'listPlaybookChecks',
        tags,
        description:
          'The checks made against a playbook (an app-bound credential: its app’s), newest first, without their results; `documentId` keeps those of one document.',
        params: PlaybookParams,
        querystring: CheckListQuery,
        response: { 200: pageOf(CheckSummary) },
      },
      config: member,
    },
    (req) => listChecks(db, principalOf(req), req.params.playbookId, req.query),
  )

  app.get(
    `${one}/checks/:checkId/redline.docx`,
    {
      schema: {
        operationId: 'getPlaybookCheckRedlineDocx',
        tags,
        description:
          "The check's suggested redlines as a Word document with tracked changes (author \"Lexdesk\"): each cited passage of a position not compliant replaced by the preferred language, each missing position's language inserted at the end; built by the comparisons' writer and verified before it is sent (accepting every change gives the suggested text, rejecting every change the document's). An attachment with `X-Content-Type-Options: nosniff` and `Content-Security-Policy: default-src 'none'; sandbox`. 409 `playbook_check_stale` when the document changed since the check.",
        params: CheckParams,
        produces: [DOCX_TYPE],
        response: {
          200: streamResponse('The DOCX file (an attachment)', [DOCX_TYPE]),
          409: problemResponse('playbook_check_stale: the document changed since the check'),
        },
      },
      config: member,
    },
    async (req, reply) => {
      const file = await checkRedlineDocx(
        { db, pool: services.pool },
        principalOf(req),
        req.params.playbookId,
        req.params.checkId,
      )
      return fileHeaders(reply, { contentType: DOCX_TYPE, fileName: file.fileName }).send(
        Buffer.from(file.bytes),
      )
    },
  )

  app.get(
    `${one}/checks/:checkId`,
    {
      schema: {
        operationId: 'getPlaybookCheck',
        tags,
        description: 'A check with its results per position.',
        params: CheckParams,
        response: { 200: CheckDetail },
      },
      config: member,
    },
    (req) => readCheck(db, principalOf(req), req.params.playbookId, req.params.checkId),
  )
}
