import { accountsRoutes } from '#server/accounts/routes.ts';
import { analyticsRoutes } from '#server/analytics/routes.ts';
import { approvalsRoutes } from '#server/approvals/routes.ts';
import { auditRoutes } from '#server/audit/routes.ts';
import { cliAuthRoutes } from '#server/cli-auth/routes.ts';
import { commentsRoutes } from '#server/comments/routes.ts';
import { dispatchRoutes } from '#server/dispatch/routes.ts';
import { exportRoutes } from '#server/exports/routes.ts';
import { feedsRoutes } from '#server/feeds/routes.ts';
import { importRoutes } from '#server/imports/routes.ts';
import { importTemplateRoutes } from '#server/imports/template-routes.ts';
import { linkPreviewRoutes } from '#server/link-preview/routes.ts';
import { linksRoutes } from '#server/links/routes.ts';
import { mcpRoutes } from '#server/mcp/routes.ts';
import { mediaLibraryRoutes } from '#server/media/library-routes.ts';
import { mediaRoutes } from '#server/media/routes.ts';
import { oauthRoutes } from '#server/oauth/routes.ts';
import { postsRoutes } from '#server/posts/routes.ts';
import { queueRoutes } from '#server/queue/routes.ts';
import { reviewRoutes } from '#server/review/routes.ts';
import { snippetsRoutes } from '#server/snippets/routes.ts';
import { templatesRoutes } from '#server/templates/routes.ts';
import { tokensRoutes } from '#server/tokens/routes.ts';
import { usersRoutes } from '#server/users/routes.ts';
import { webhooksRoutes } from '#server/webhooks/routes.ts';
import { workspacesRoutes } from '#server/workspaces/routes.ts';
import { apiDocsRoutes } from './routes.ts';

/**
 * Every HTTP route of the Scheduler, declared once. Route handlers under `app/` are wired from
 * these entries (`route(apiRoutes.x, …)`), `/openapi.json` lists them, and a test fails when a
 * `route.ts` exports a method that has no entry here (or an entry has no handler).
 */
export const apiRoutes = {
  ...postsRoutes,
  ...commentsRoutes,
  ...approvalsRoutes,
  ...reviewRoutes,
  ...importRoutes,
  ...importTemplateRoutes,
  ...exportRoutes,
  ...feedsRoutes,
  ...accountsRoutes,
  ...analyticsRoutes,
  ...queueRoutes,
  ...mediaRoutes,
  ...mediaLibraryRoutes,
  ...linkPreviewRoutes,
  ...tokensRoutes,
  ...usersRoutes,
  ...cliAuthRoutes,
  ...mcpRoutes,
  ...oauthRoutes,
  ...dispatchRoutes,
  ...webhooksRoutes,
  ...templatesRoutes,
  ...snippetsRoutes,
  ...workspacesRoutes,
  ...linksRoutes,
  ...auditRoutes,
  ...apiDocsRoutes,
};
