/**
 * The page a sign-in link opens (issue 29, point 9: login CSRF). It names the account the link
 * signs in, warns when the browser is signed in as someone else, and signs in only when the
 * person presses its button: a same-origin form POST to /api/auth/magic-link/verify, which is
 * what consumes the token. Plain server-rendered HTML without script (the app's CSP allows its
 * inline style), so it works before the single-page app loads and from any mail client.
 */

/** What the page shows and posts back. */
export interface SignInConfirmation {
  /** The address the link signs in. */
  email: string
  /** The signed-in user of this browser, if any. */
  current?: { id: string; email: string }
  /** The link's token and its callback URLs (already checked to be same-origin). */
  fields: { token: string } & Partial<
    Record<'callbackURL' | 'newUserCallbackURL' | 'errorCallbackURL', string>
  >
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** `text` with the five HTML-special characters escaped (for text and quoted attributes). */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c)
}

const STYLE = `
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#f4f4f5;color:#18181b;
font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:28rem;margin:1.5rem;padding:2rem;background:#fff;border:1px solid #e4e4e7;border-radius:.75rem}
h1{margin:0 0 1rem;font-size:1.25rem}p{margin:0 0 1rem}.warn{padding:.75rem;border-radius:.5rem;background:#fef3c7}
button{width:100%;padding:.6rem 1rem;border:0;border-radius:.5rem;background:#18181b;color:#fff;font:inherit;cursor:pointer}
button:focus-visible,a:focus-visible{outline:2px solid #2563eb;outline-offset:2px}
.stay{display:block;margin-top:1rem;text-align:center;color:#18181b}.note{margin-top:1.5rem;font-size:.875rem;color:#52525b}`

/** The confirmation page as a complete HTML document. */
export function signInConfirmationPage({ email, current, fields }: SignInConfirmation): string {
  const hidden = { ...fields, signedInAs: current?.id ?? '' }
  const inputs = Object.entries(hidden)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .map(
      ([name, value]) =>
        `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`,
    )
    .join('\n')
  const switching = current !== undefined && current.email.toLowerCase() !== email.toLowerCase()
  const warning = switching
    ? `<p class="warn">You are signed in as ${escapeHtml(current.email)}. This link signs this browser in as ${escapeHtml(email)} instead.</p>`
    : `<p>This link signs you in to Lexdesk as ${escapeHtml(email)}.</p>`
  const stay = switching
    ? `<a class="stay" href="${escapeHtml(fields.callbackURL ?? '/')}">Stay signed in as ${escapeHtml(current.email)}</a>`
    : ''
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Sign in to Lexdesk</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Sign in to Lexdesk</h1>
${warning}
<form method="post" action="/api/auth/magic-link/verify">
${inputs}
<button type="submit">Sign in as ${escapeHtml(email)}</button>
</form>
${stay}
<p class="note">Continue only if you asked for this link yourself. If you did not, close this page: nothing happens until you press the button.</p>
</main>
</body>
</html>
`
}
