#include "SideBySideStore.h"

#include <string>
#include <tuple>
#include <vector>

namespace SideBySideStore {

std::shared_ptr<TraceStore> merge(const ComparisonSide &baseline, const ComparisonSide &candidate,
                                  const std::atomic<bool> *cancelled)
{
    auto merged = std::make_shared<TraceStore>();
    merged->format = QStringLiteral("comparison");
    RequestTable &out = merged->requests;
    out.reserve(baseline.size() + candidate.size(), 0);
    AttributeColumn &side = out.attributeColumn(sideAttribute(), AttributeColumn::Kind::Categorical);
    const quint32 baseCode = side.internValue(baselineLabel());
    const quint32 candCode = side.internValue(candidateLabel());
    std::string id;
    for (const auto &[input, code, prefix] :
         {std::tuple{&baseline, baseCode, "baseline:"}, std::tuple{&candidate, candCode, "candidate:"}}) {
        if (!input->store)
            continue;
        const RequestTable &in = input->table();
        // Each source attribute's column in the merged table, found once.
        std::vector<qsizetype> target;
        for (const AttributeColumn &column : in.attributes()) {
            AttributeColumn &made = out.attributeColumn(column.name(), column.kind());
            target.push_back(out.attributeIndex(made.name()));
        }
        const size_t sideColumn = size_t(out.attributeIndex(sideAttribute()));
        for (qsizetype row = 0; row < in.rowCount(); ++row) {
            if (!input->rows.contains(row))
                continue;
            if (cancelled && (row & 0xFFFF) == 0 && cancelled->load(std::memory_order_relaxed))
                return nullptr;
            id.assign(prefix);
            id.append(in.id(row));
            RequestTable::Row copy;
            copy.id = id;
            copy.promptTokens = in.promptTokens(row);
            copy.outputTokens = in.outputTokens(row);
            for (int s = 0; s < kStampCount; ++s)
                copy.stamps[size_t(s)] = in.stamp(row, static_cast<Stamp>(s));
            copy.sourceLine = in.sourceLine(row);
            out.appendRow(copy);
            const qsizetype at = out.rowCount() - 1;
            auto &columns = out.mutableAttributes();
            columns[sideColumn].padTo(at);
            columns[sideColumn].appendCode(code);
            for (size_t i = 0; i < target.size(); ++i) {
                const AttributeColumn &from = in.attributes()[i];
                if (!from.isPresent(row))
                    continue;
                AttributeColumn &to = columns[size_t(target[i])];
                to.padTo(at);
                if (from.isNumeric() && to.isNumeric())
                    to.appendNumber(from.number(row));
                else
                    to.appendText(from.text(row));
            }
            out.finishRow();
        }
    }
    out.squeeze();
    merged->sourceFiles << baseline.label << candidate.label;
    return merged;
}

} // namespace SideBySideStore
