/**
 * The shapes of the query values the pages show: the `--json` outputs of list, info, tree,
 * show (entries), context, stats, search and files (docs/JSON.md), as the query layer types them.
 * @module
 */
import type { FileHit, FileSessionJson, InfoJson, SearchHitJson, SessionJson, StatsJson, TreeJson, TreeRowJson } from "../../../query/mod.ts";

export type ListedSession = SessionJson;
export type InfoValue = InfoJson;
export type UsageValue = InfoJson["usage"];
export type TreeRowValue = TreeRowJson;
export type TreeValue = TreeJson;
export type StatsValue = StatsJson;
export type StatsRow = StatsJson["rows"][number];
export type SearchHit = SearchHitJson;
export type FileRef = FileHit;
export type FilesItem = FileSessionJson;
