import type { Migration } from 'kysely';
import * as platform from './2026_11_21_0001_platform';
import * as mccCodes from './2026_11_21_0002_mcc_codes';
import * as groups from './2026_11_21_0003_groups';
import * as merchants from './2026_11_21_0004_merchants';
import * as applications from './2026_11_21_0005_applications';
import * as merchantActivity from './2026_11_21_0006_merchant_activity';
import * as merchantIncome from './2026_11_21_0007_merchant_income';
import * as residuals from './2026_11_21_0008_residuals';
import * as adjustments from './2026_11_21_0009_adjustments';
import * as scheduleA from './2026_11_21_0010_schedule_a';
import * as approvalGoals from './2026_11_21_0011_approval_goals';
import * as holidays from './2026_11_21_0012_holidays';
import * as processingBudgets from './2026_11_21_0013_processing_budgets';
import * as savedReports from './2026_11_21_0014_saved_reports';
import * as activityRollup from './2026_11_21_0015_activity_rollup';
import * as selfserveRows from './2026_11_21_0016_selfserve_rows';
import * as sortIndexes from './2026_11_21_0017_sort_indexes';
import * as rollupIsoRows from './2026_11_21_0018_rollup_iso_rows';
import * as residualSearchIndexes from './2026_11_21_0019_residual_search_indexes';
import * as approvalGoalsInternal from './2026_11_21_0020_approval_goals_internal';
import * as partnerStaffAndPublicRole from './2026_11_22_0001_partner_staff_and_public_role';
import * as signinThrottle from './2026_11_22_0002_signin_throttle';
import * as documents from './2026_11_22_0003_documents';
import * as jobProgress from './2026_11_22_0004_job_progress';
import * as demoState from './2026_11_22_0005_demo_state';
import * as outboxDelivery from './2026_11_22_0006_outbox_delivery';
import * as partners from './2026_11_22_0010_partners';
import * as applicationsPartnerApproved from './2026_11_22_0020_applications_partner_approved';
import * as processing from './2026_11_22_0030_processing';
import * as achReturns from './2026_11_22_0040_ach_returns';
import * as answerVersions from './2026_11_23_0005_answer_versions';
import * as achRateRanking from './2026_11_23_0006_ach_rate_ranking';
import * as bonus from './2026_11_23_0030_bonus';
import * as achLegalNames from './2026_11_24_0005_ach_legal_names';
import * as merchantFilterIndex from './2026_11_24_0006_merchant_filter_index';
import * as bi from './2026_11_24_0010_bi';
import * as pci from './2026_11_24_0020_pci';
import * as leads from './2026_11_24_0030_leads';
import * as biRollups from './2026_11_25_0010_bi_rollups';
import * as speed from './2026_11_25_0020_speed';
import * as leadsDocuments from './2026_11_25_0050_leads_documents';
import * as biAnswerCache from './2026_11_26_0010_bi_answer_cache';
import * as monthTotals from './2026_11_27_0010_month_totals';
import * as pciCompliantIndex from './2026_11_27_0020_pci_compliant_index';
import * as achRateWindowIso from './2026_11_28_0010_ach_rate_window_iso';
import * as bonusAnswerCache from './2026_11_28_0020_bonus_answer_cache';
import * as residualsUnusedIndex from './2026_11_28_0030_residuals_unused_index';
import * as merchantsGroupMcc from './2026_11_28_0040_merchants_group_mcc';
import * as pciOpenMerchantIndex from './2026_11_29_0010_pci_open_merchant_index';
import * as pciOpenCounts from './2026_11_29_0020_pci_open_counts';
import * as applicationsApprovedCover from './2026_11_30_0010_applications_approved_cover';
import * as pciMerchantsDba from './2026_12_01_0010_pci_merchants_dba';
import * as residualsByMonth from './2026_12_02_0010_residuals_by_month';
import * as biIsoInfo from './2026_12_03_0010_bi_iso_info';
import * as achCodeDays from './2026_12_03_0020_ach_code_days';
import * as biGroupTotals from './2026_12_04_0010_bi_group_totals';
import * as bonusRowFigures from './2026_12_05_0010_bonus_row_figures';
import * as bonusRowAnswer from './2026_12_06_0010_bonus_row_answer';
import * as biIsoInfoAnswer from './2026_12_06_0020_bi_iso_info_answer';
import * as bonusWindowOrder from './2026_12_07_0010_bonus_window_order';
import * as residualsAgentOrder from './2026_12_07_0020_residuals_agent_order';
import * as achSearchCover from './2026_12_08_0010_ach_search_cover';
import * as biClosedColumns from './2026_12_08_0020_bi_closed_columns';
import * as biGroupApprovals from './2026_12_08_0030_bi_group_approvals';
import * as residualBuilds from './2026_12_08_0040_residual_builds';
import * as achFileDateCover from './2026_12_08_0050_ach_file_date_cover';
import * as pciComplianceCounts from './2026_12_08_0060_pci_compliance_counts';
import * as pciOpenCountsFromCompliance from './2026_12_09_0010_pci_open_counts_from_compliance';
import * as finOptions from './2026_12_09_0020_fin_options';
import * as bonusActivationAnswer from './2026_12_09_0030_bonus_activation_answer';
import * as pciMerchantClosed from './2026_12_09_0040_pci_merchant_closed';
import * as partnersNameOrder from './2026_12_09_0050_partners_name_order';
import * as bonusRowsMatched from './2026_12_09_0060_bonus_rows_matched';
import * as approvalsAnswer from './2026_12_10_0010_approvals_answer';
import * as pciBillingTotals from './2026_12_10_0020_pci_billing_totals';
import * as partnerSearch from './2026_12_10_0030_partner_search';
import * as pciHistoricAnswer from './2026_12_10_0040_pci_historic_answer';
import * as merchantsApprovedOn from './2026_12_10_0050_merchants_approved_on';
import * as approvalsParts from './2026_12_11_0010_approvals_parts';
import * as pciHistoricParts from './2026_12_11_0020_pci_historic_parts';
import * as finOptionsColumns from './2026_12_11_0030_fin_options_columns';
import * as transitionTablesHashed from './2026_12_12_0010_transition_tables_hashed';
import * as activationParts from './2026_12_13_0010_activation_parts';
import * as finOptionsParts from './2026_12_13_0020_fin_options_parts';
import * as bonusHeadsByStatement from './2026_12_13_0030_bonus_heads_by_statement';
import * as clawbackAnswerVersion from './2026_12_13_0040_clawback_answer_version';
import * as selfserveCounts from './2026_12_14_0010_selfserve_counts';
import * as writeQueue from './2026_12_15_0010_write_queue';
import * as residualCounts from './2026_12_15_0020_residual_counts';
import * as biMapVersion from './2026_12_16_0010_bi_map_version';
import * as biStatsFields from './2026_12_17_0010_bi_stats_fields';
import * as activationRows from './2026_12_18_0010_activation_rows';
import * as approvalRows from './2026_12_18_0020_approval_rows';
import * as selfserveTextCovering from './2026_12_19_0010_selfserve_text_covering';
import * as residualAgentCovering from './2026_12_19_0020_residual_agent_covering';

/** Every migration, in order. A new one is added here under its timestamped name. */
export const migrations: Record<string, Migration> = {
  '2026_11_21_0001_platform': platform,
  '2026_11_21_0002_mcc_codes': mccCodes,
  '2026_11_21_0003_groups': groups,
  '2026_11_21_0004_merchants': merchants,
  '2026_11_21_0005_applications': applications,
  '2026_11_21_0006_merchant_activity': merchantActivity,
  '2026_11_21_0007_merchant_income': merchantIncome,
  '2026_11_21_0008_residuals': residuals,
  '2026_11_21_0009_adjustments': adjustments,
  '2026_11_21_0010_schedule_a': scheduleA,
  '2026_11_21_0011_approval_goals': approvalGoals,
  '2026_11_21_0012_holidays': holidays,
  '2026_11_21_0013_processing_budgets': processingBudgets,
  '2026_11_21_0014_saved_reports': savedReports,
  '2026_11_21_0015_activity_rollup': activityRollup,
  '2026_11_21_0016_selfserve_rows': selfserveRows,
  '2026_11_21_0017_sort_indexes': sortIndexes,
  '2026_11_21_0018_rollup_iso_rows': rollupIsoRows,
  '2026_11_21_0019_residual_search_indexes': residualSearchIndexes,
  '2026_11_21_0020_approval_goals_internal': approvalGoalsInternal,
  '2026_11_22_0001_partner_staff_and_public_role': partnerStaffAndPublicRole,
  '2026_11_22_0002_signin_throttle': signinThrottle,
  '2026_11_22_0003_documents': documents,
  '2026_11_22_0004_job_progress': jobProgress,
  '2026_11_22_0005_demo_state': demoState,
  '2026_11_22_0006_outbox_delivery': outboxDelivery,
  '2026_11_22_0010_partners': partners,
  '2026_11_22_0020_applications_partner_approved': applicationsPartnerApproved,
  '2026_11_22_0030_processing': processing,
  '2026_11_22_0040_ach_returns': achReturns,
  '2026_11_23_0005_answer_versions': answerVersions,
  '2026_11_23_0006_ach_rate_ranking': achRateRanking,
  '2026_11_23_0030_bonus': bonus,
  '2026_11_24_0005_ach_legal_names': achLegalNames,
  '2026_11_24_0006_merchant_filter_index': merchantFilterIndex,
  '2026_11_24_0010_bi': bi,
  '2026_11_24_0020_pci': pci,
  '2026_11_24_0030_leads': leads,
  '2026_11_25_0010_bi_rollups': biRollups,
  '2026_11_25_0020_speed': speed,
  '2026_11_25_0050_leads_documents': leadsDocuments,
  '2026_11_26_0010_bi_answer_cache': biAnswerCache,
  '2026_11_27_0010_month_totals': monthTotals,
  '2026_11_27_0020_pci_compliant_index': pciCompliantIndex,
  '2026_11_28_0010_ach_rate_window_iso': achRateWindowIso,
  '2026_11_28_0020_bonus_answer_cache': bonusAnswerCache,
  '2026_11_28_0030_residuals_unused_index': residualsUnusedIndex,
  '2026_11_28_0040_merchants_group_mcc': merchantsGroupMcc,
  '2026_11_29_0010_pci_open_merchant_index': pciOpenMerchantIndex,
  '2026_11_29_0020_pci_open_counts': pciOpenCounts,
  '2026_11_30_0010_applications_approved_cover': applicationsApprovedCover,
  '2026_12_01_0010_pci_merchants_dba': pciMerchantsDba,
  '2026_12_02_0010_residuals_by_month': residualsByMonth,
  '2026_12_03_0010_bi_iso_info': biIsoInfo,
  '2026_12_03_0020_ach_code_days': achCodeDays,
  '2026_12_04_0010_bi_group_totals': biGroupTotals,
  '2026_12_05_0010_bonus_row_figures': bonusRowFigures,
  '2026_12_06_0010_bonus_row_answer': bonusRowAnswer,
  '2026_12_06_0020_bi_iso_info_answer': biIsoInfoAnswer,
  '2026_12_07_0010_bonus_window_order': bonusWindowOrder,
  '2026_12_07_0020_residuals_agent_order': residualsAgentOrder,
  '2026_12_08_0010_ach_search_cover': achSearchCover,
  '2026_12_08_0020_bi_closed_columns': biClosedColumns,
  '2026_12_08_0030_bi_group_approvals': biGroupApprovals,
  '2026_12_08_0040_residual_builds': residualBuilds,
  '2026_12_08_0050_ach_file_date_cover': achFileDateCover,
  '2026_12_08_0060_pci_compliance_counts': pciComplianceCounts,
  '2026_12_09_0010_pci_open_counts_from_compliance': pciOpenCountsFromCompliance,
  '2026_12_09_0020_fin_options': finOptions,
  '2026_12_09_0030_bonus_activation_answer': bonusActivationAnswer,
  '2026_12_09_0040_pci_merchant_closed': pciMerchantClosed,
  '2026_12_09_0050_partners_name_order': partnersNameOrder,
  '2026_12_09_0060_bonus_rows_matched': bonusRowsMatched,
  '2026_12_10_0010_approvals_answer': approvalsAnswer,
  '2026_12_10_0020_pci_billing_totals': pciBillingTotals,
  '2026_12_10_0030_partner_search': partnerSearch,
  '2026_12_10_0040_pci_historic_answer': pciHistoricAnswer,
  '2026_12_10_0050_merchants_approved_on': merchantsApprovedOn,
  '2026_12_11_0010_approvals_parts': approvalsParts,
  '2026_12_11_0020_pci_historic_parts': pciHistoricParts,
  '2026_12_11_0030_fin_options_columns': finOptionsColumns,
  '2026_12_12_0010_transition_tables_hashed': transitionTablesHashed,
  '2026_12_13_0010_activation_parts': activationParts,
  '2026_12_13_0020_fin_options_parts': finOptionsParts,
  '2026_12_13_0030_bonus_heads_by_statement': bonusHeadsByStatement,
  '2026_12_13_0040_clawback_answer_version': clawbackAnswerVersion,
  '2026_12_14_0010_selfserve_counts': selfserveCounts,
  '2026_12_15_0010_write_queue': writeQueue,
  '2026_12_15_0020_residual_counts': residualCounts,
  '2026_12_16_0010_bi_map_version': biMapVersion,
  '2026_12_17_0010_bi_stats_fields': biStatsFields,
  '2026_12_18_0010_activation_rows': activationRows,
  '2026_12_18_0020_approval_rows': approvalRows,
  '2026_12_19_0010_selfserve_text_covering': selfserveTextCovering,
  '2026_12_19_0020_residual_agent_covering': residualAgentCovering,
};
