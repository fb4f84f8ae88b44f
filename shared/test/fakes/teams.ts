import { randomBytes } from 'node:crypto';
import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';

/**
 * A fake of Microsoft Teams' incoming webhooks: Workflows ("Post to a channel when a webhook
 * request is received", a Logic Apps manual trigger) answer 202 with a run id before the card is
 * looked at; the run then posts the card to the channel, or fails when Teams refuses it (not an
 * Adaptive Card, over 28 KB). A wrong `sig` is 401, an unknown workflow 404, both with Logic Apps'
 * `{ error: { code, message } }`. Legacy Office 365 connectors (`/webhookb2/…`) answer 200 `1`,
 * and 200 with an explanation when Teams refused the message.
 */
export interface FakeTeamsWorkflow {
  id: string;
  sig: string;
  channel: string;
}

export interface FakeTeamsMessage {
  channel: string;
  /** The Adaptive Card (`attachments[0].content`). */
  card: Record<string, unknown>;
  via: 'workflow' | 'connector';
}

export interface FakeTeamsRun {
  runId: string;
  workflowId: string;
  status: 'Succeeded' | 'Failed';
  error?: string;
}

const maxCardBytes = 28 * 1024;

export class FakeTeams {
  readonly server = new FakeServer();
  readonly workflows = new Map<string, FakeTeamsWorkflow>();
  readonly messages: FakeTeamsMessage[] = [];
  readonly runs: FakeTeamsRun[] = [];
  readonly workflow: FakeTeamsWorkflow;
  readonly connectorPath: string;

  constructor() {
    this.server.route('POST', /^\/workflows\/([^/]+)\/triggers\/manual\/paths\/invoke$/, (r, m) =>
      this.#invoke(r, m[1]!),
    );
    this.server.route('POST', /^\/webhookb2\/[^/]+\/IncomingWebhook\/[^/]+\/[^/]+$/, (r) =>
      this.#connector(r),
    );
    this.workflow = this.addWorkflow('General');
    this.connectorPath = `/webhookb2/${crypto.randomUUID()}@${crypto.randomUUID()}/IncomingWebhook/${randomBytes(16).toString('hex')}/${crypto.randomUUID()}`;
  }

  get url(): string {
    return this.server.url;
  }

  addWorkflow(channel: string): FakeTeamsWorkflow {
    const workflow = {
      id: randomBytes(16).toString('hex'),
      sig: randomBytes(32).toString('base64url'),
      channel,
    };
    this.workflows.set(workflow.id, workflow);
    return workflow;
  }

  /** The URL the Workflows app shows for the flow, on this fake. */
  webhookUrl(workflow: FakeTeamsWorkflow = this.workflow, sig = workflow.sig): string {
    const query = new URLSearchParams({
      'api-version': '2016-06-01',
      sp: '/triggers/manual/run',
      sv: '1.0',
      sig,
    });
    return `${this.url}/workflows/${workflow.id}/triggers/manual/paths/invoke?${query}`;
  }

  connectorUrl(): string {
    return `${this.url}${this.connectorPath}`;
  }

  /** The next `times` invocations answer 429, as Logic Apps' throttling does. */
  rateLimitNext(options: { retryAfterSeconds?: number; times?: number } = {}): void {
    this.server.inject({
      times: options.times ?? 1,
      status: 429,
      headers: { 'retry-after': String(options.retryAfterSeconds ?? 0) },
      json: { error: { code: 'WorkflowRequestsThrottled', message: 'Rate limit is exceeded.' } },
    });
  }

  invocations(): RecordedRequest[] {
    return this.server.requests.filter((r) => r.method === 'POST');
  }

  start(): Promise<FakeServer> {
    return this.server.start();
  }
  close(): Promise<void> {
    return this.server.close();
  }

  #invoke(request: RecordedRequest, id: string): FakeResponse {
    const workflow = this.workflows.get(id);
    if (!workflow) {
      return logicError(404, 'WorkflowNotFound', `The workflow '${id}' could not be found.`);
    }
    if (request.query.get('sig') !== workflow.sig) {
      return logicError(
        401,
        'DirectApiInvalidAuthorizationSignature',
        "The provided callback URL signature is not valid for the trigger 'manual'.",
      );
    }
    if (!request.body || typeof request.body !== 'object') {
      return logicError(
        400,
        'InvalidRequestContent',
        'The request content is not valid and could not be deserialized.',
      );
    }
    const runId = `08584${randomBytes(10).toString('hex').toUpperCase()}CU00`;
    const problem = cardProblem(request);
    if (problem) this.runs.push({ runId, workflowId: id, status: 'Failed', error: problem });
    else {
      this.runs.push({ runId, workflowId: id, status: 'Succeeded' });
      this.messages.push({ channel: workflow.channel, card: cardOf(request.body)!, via: 'workflow' });
    }
    return {
      status: 202,
      headers: {
        'x-ms-workflow-run-id': runId,
        'x-ms-correlation-id': crypto.randomUUID(),
        'x-ms-tracking-id': crypto.randomUUID(),
      },
    };
  }

  #connector(request: RecordedRequest): FakeResponse {
    if (!request.path.startsWith(this.connectorPath)) return { status: 404, text: 'Not Found' };
    const problem = cardProblem(request);
    if (problem) {
      return {
        text: `Webhook message delivery failed with error: Microsoft Teams endpoint returned HTTP error ${problem === 'too large' ? 413 : 400} with ContextId ${randomBytes(8).toString('hex')}`,
      };
    }
    this.messages.push({ channel: 'Connector channel', card: cardOf(request.body)!, via: 'connector' });
    return { text: '1' };
  }
}

function cardOf(body: unknown): Record<string, unknown> | undefined {
  const attachments = (
    body as { attachments?: { contentType?: string; content?: Record<string, unknown> }[] }
  )?.attachments;
  const first = Array.isArray(attachments) ? attachments[0] : undefined;
  return first?.contentType === 'application/vnd.microsoft.card.adaptive' ? first.content : undefined;
}

/** Why Teams would refuse the message: not a `message` with an Adaptive Card ≤ 1.5, or over 28 KB. */
function cardProblem(request: RecordedRequest): string | undefined {
  if (request.rawBody.length > maxCardBytes) return 'too large';
  const body = request.body as { type?: unknown } | undefined;
  if (body?.type !== 'message') return 'not a message activity';
  const card = cardOf(body);
  if (card?.type !== 'AdaptiveCard') return 'no Adaptive Card';
  if (typeof card.version !== 'string' || !/^1\.[0-5]$/.test(card.version)) return 'unsupported card version';
  if (!Array.isArray(card.body)) return 'card without body';
  return undefined;
}

function logicError(status: number, code: string, message: string): FakeResponse {
  return { status, json: { error: { code, message } } };
}

export async function startFakeTeams(): Promise<FakeTeams> {
  const fake = new FakeTeams();
  await fake.start();
  return fake;
}
