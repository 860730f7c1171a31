/**
 * The model context at an entry (`context --format json`): the settings, then each message
 * pi would send, in order, by role.
 * @module
 */
import type { AgentMessage } from "../../../core/format/types.ts";
import { messageText } from "../../../render/message-text.ts";
import { html, type Raw, urlPart } from "../html.ts";
import { count } from "./format.ts";

export interface ContextValue {
  messages: AgentMessage[];
  thinkingLevel: string;
  model: { provider: string; modelId: string } | null;
}

export function contextView(sessionId: string, leaf: string | null, value: ContextValue): Raw {
  const back = `/sessions/${urlPart(sessionId)}${leaf ? `?leaf=${urlPart(leaf)}#entry-${urlPart(leaf)}` : ""}`;
  const api = `/api/sessions/${urlPart(sessionId)}/context?format=llm${leaf ? `&leaf=${urlPart(leaf)}` : ""}`;
  const model = value.model ? `${value.model.provider}/${value.model.modelId}` : "none";
  const messages = value.messages.map((m, i) =>
    html`<article class="entry kind-${String(m.role).replace(/[^A-Za-z0-9_-]/g, "")}"><header><span class="who">${i + 1}. ${String(m.role)}</span></header><div class="text">${messageText(m, { thinking: true })}</div></article>`
  );
  return html`<h1>Model context</h1><p class="notes">At entry <code>${leaf ?? "(last)"}</code> of <a href="${back}">session ${sessionId.slice(0, 8)}</a>: ${count(value.messages.length)} messages · model ${model} · thinking ${value.thinkingLevel} · <a href="${api}">as the LLM sees it (JSON)</a></p><section class="messages">${messages}</section>`;
}
