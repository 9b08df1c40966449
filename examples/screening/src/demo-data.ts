/** Loads the shipped extracts of real data (OFAC SDN, Ethereum labels) into an engine. */
import { fileURLToPath } from "node:url";
import type { Engine, SanctionsListing } from "@openkyt/core";
import { readCsvRecords } from "./csv-rows.js";

const dataFile = (name: string) => fileURLToPath(new URL(`../data/${name}`, import.meta.url));

/** The sanctions extract as listings (no known start date: listed since the beginning of time). */
export function sanctionsExtract(): SanctionsListing[] {
  return readCsvRecords(dataFile("ofac-sdn-extract.csv")).map((r) => ({
    network: r.network ?? "",
    address: r.address ?? "",
    listName: r.list_name ?? "OFAC SDN",
    program: r.program || null,
    entity: r.entity || null,
    listedAt: null,
    delistedAt: null,
  }));
}

/** The labels extract as attributions. */
export function labelsExtract() {
  return readCsvRecords(dataFile("eth-labels-extract.csv")).map((r) => ({
    network: r.network ?? "",
    address: r.address ?? "",
    entityName: r.entity_name ?? "",
    entityCategory: r.entity_category ?? "",
    source: r.source || null,
  }));
}

/** Loads both extracts; returns them for picking story addresses. */
export async function loadRealData(engine: Engine) {
  const sanctions = sanctionsExtract();
  const labels = labelsExtract();
  await engine.reference.loadSanctions(sanctions);
  await engine.reference.loadAttributions(labels);
  return { sanctions, labels };
}
