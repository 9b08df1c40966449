/**
 * The overall risk level and score, shown large and coloured by level; the notice of the
 * without-risks variants; and the coloured level cell the tables use.
 */
import { type RiskLevel, type RuleRiskLevel, riskRank } from "@openkyt/core";
import type { Content, TableCell } from "pdfmake/interfaces";
import { notice, unwrapped } from "./report-blocks.js";
import { capitalised } from "./report-format.js";
import { boxLayout, COLORS, CONTENT_WIDTH, LEVEL_COLORS } from "./report-styles.js";

const LEVEL_MEANING: Readonly<Record<RiskLevel, string>> = Object.freeze({
  undefined: "Not computed yet: the checks have not finished.",
  none: "No rule of the risk model fired.",
  low: "The highest rule that fired raises a low risk.",
  medium: "The highest rule that fired raises a medium risk.",
  high: "The highest rule that fired raises a high risk.",
  severe: "The highest rule that fired raises a severe risk.",
});

/** The display name of a level ("not computed" for undefined). */
export function levelName(level: RiskLevel): string {
  return level === "undefined" ? "Not computed" : capitalised(level);
}

/** The risk summary: level and score in a box filled with the level's colour. */
export function riskSummary(level: RiskLevel, score: number | null, riskCount: number): Content {
  const colors = LEVEL_COLORS[level];
  const scoreText = score === null ? "—" : score.toFixed(2);
  const counted = riskCount === 0 ? "" : ` ${riskCount === 1 ? "1 risk" : `${riskCount} risks`} detected.`;
  return {
    table: {
      widths: ["*", 110],
      body: [
        [
          // The left column: the page less the score's 110 and the box's padding (8 a side).
          unwrapped(
            {
              stack: [
                { text: "OVERALL RISK LEVEL", fontSize: 8, bold: true, color: colors.text },
                { text: levelName(level).toUpperCase(), fontSize: 22, bold: true, color: colors.text },
                { text: `${LEVEL_MEANING[level]}${counted}`, fontSize: 8.5, color: colors.text },
              ],
              fillColor: colors.fill,
            },
            CONTENT_WIDTH - 110 - 10,
          ),
          {
            stack: [
              { text: "RISK SCORE", fontSize: 8, bold: true, color: colors.text, alignment: "right" },
              { text: scoreText, fontSize: 22, bold: true, color: colors.text, alignment: "right" },
              { text: "from 0 to 1", fontSize: 8.5, color: colors.text, alignment: "right" },
            ],
            fillColor: colors.fill,
          },
        ],
      ],
    },
    layout: boxLayout(colors.fill),
    margin: [0, 10, 0, 4],
    unbreakable: true,
  };
}

/** The notice of a without-risks report, where the risk summary would be. */
export function risksOmittedNotice(subject: string): Content {
  return notice(
    [
      { text: "This report omits the risks detected. ", bold: true },
      `It leaves out the risks of this ${subject}, the alerts raised for them and the overall risk level and ` +
        "score. It shows what was screened and what the checks found.",
    ],
    COLORS.info,
    COLORS.infoBorder,
  );
}

/** A table cell filled with a level's colour. */
export function levelCell(level: RiskLevel): TableCell {
  const c = LEVEL_COLORS[level];
  return { text: levelName(level), bold: true, color: c.text, fillColor: c.fill, alignment: "center" };
}

/** Levels highest first, for ordering risks and alerts. */
export function byLevelDesc(a: { risk_level: RuleRiskLevel }, b: { risk_level: RuleRiskLevel }): number {
  return riskRank(b.risk_level) - riskRank(a.risk_level);
}
