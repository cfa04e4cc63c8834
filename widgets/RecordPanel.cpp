#include "RecordPanel.h"

#include "InSightWork.h"
#include "ViewState.h"
#include "review/RecordDraft.h"
#include "review/RecordJson.h"
#include "review/RecordText.h"
#include "store/TraceStore.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {

enum ObjectiveColumn { MetricColumn, BoundaryColumn, PercentileColumn, ThresholdColumn, ResultColumn };
enum ConfigurationColumn { KeyColumn, ValueColumn, SourceColumn };

QComboBox *metricCombo(QWidget *parent, Metric metric)
{
    auto *combo = new QComboBox(parent);
    for (const Metric candidate : allMetrics())
        combo->addItem(metricLabel(candidate), int(candidate));
    combo->setCurrentIndex(combo->findData(int(metric)));
    return combo;
}

QComboBox *boundaryCombo(QWidget *parent, Boundary boundary)
{
    auto *combo = new QComboBox(parent);
    for (const Boundary candidate : {Boundary::Client, Boundary::Server, Boundary::Engine})
        combo->addItem(boundaryKey(candidate), int(candidate));
    combo->setCurrentIndex(combo->findData(int(boundary)));
    return combo;
}

QDoubleSpinBox *spinBox(QWidget *parent, double minimum, double maximum, int decimals, double value,
                        const QString &suffix = {})
{
    auto *spin = new QDoubleSpinBox(parent);
    spin->setRange(minimum, maximum);
    spin->setDecimals(decimals);
    spin->setValue(value);
    spin->setSuffix(suffix);
    return spin;
}

QPlainTextEdit *textBox(QWidget *parent, int lines)
{
    auto *edit = new QPlainTextEdit(parent);
    edit->setTabChangesFocus(true);
    edit->setFixedHeight(edit->fontMetrics().lineSpacing() * lines + 12);
    return edit;
}

QLabel *measuredLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QString traceNameOf(const TraceStore &store)
{
    QStringList names;
    for (const QString &file : store.sourceFiles)
        names.append(QFileInfo(file).fileName());
    return names.join(QStringLiteral(", "));
}

} // namespace

RecordPanel::RecordPanel(ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_state(state)
    , m_status(new QLabel(this))
    , m_show(new InSightWork(this, [this] { showMeasured(); }))
{
    setObjectName(QStringLiteral("recordPanel"));
    auto *measure = new QPushButton(tr("&Measure on View"), this);
    measure->setObjectName(QStringLiteral("recordMeasure"));
    measure->setToolTip(tr("Check the objectives and re-measure the trace's parts on the current slice "
                           "(or the whole trace), keeping what you wrote"));
    auto *open = new QPushButton(tr("Open Record\u2026"), this);
    auto *save = new QPushButton(tr("Save Record\u2026"), this);
    connect(measure, &QPushButton::clicked, this, &RecordPanel::measure);
    connect(open, &QPushButton::clicked, this, &RecordPanel::openWithDialog);
    connect(save, &QPushButton::clicked, this, &RecordPanel::saveWithDialog);
    m_status->setObjectName(QStringLiteral("recordStatus"));
    auto *bar = new QHBoxLayout;
    bar->addWidget(measure);
    bar->addWidget(open);
    bar->addWidget(save);
    bar->addWidget(m_status, 1);

    auto *columns = new QHBoxLayout;
    auto *left = new QVBoxLayout;
    left->addWidget(createClaimBox());
    left->addStretch();
    auto *middle = new QVBoxLayout;
    middle->addWidget(createCoordinatesBox());
    middle->addStretch();
    auto *right = new QVBoxLayout;
    right->addWidget(createEvidenceBox());
    right->addWidget(createStopRuleBox());
    right->addStretch();
    columns->addLayout(left, 4);
    columns->addLayout(middle, 4);
    columns->addLayout(right, 4);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addLayout(columns, 1);

    connect(state, &ViewState::storeChanged, this, &RecordPanel::onStoreChanged);
    setRecord(DiagnosisRecord{});
    m_status->setText(tr("Open a trace to draft its diagnosis record."));
}

RecordPanel::~RecordPanel() = default;

QWidget *RecordPanel::createClaimBox()
{
    auto *box = new QGroupBox(tr("Claim and objectives"), this);
    m_title = new QLineEdit(box);
    m_title->setObjectName(QStringLiteral("recordTitle"));
    m_author = new QLineEdit(box);
    m_date = new QLineEdit(box);
    m_date->setPlaceholderText(tr("YYYY-MM-DD"));
    m_claim = textBox(box, 3);
    m_claim->setPlaceholderText(tr("Under this workload and boundary, this phase dominates, this intervention "
                                   "should move it, and this trace can prove whether it did."));
    m_objectives = new QTableWidget(0, 5, box);
    m_objectives->setObjectName(QStringLiteral("recordObjectives"));
    m_objectives->setHorizontalHeaderLabels(
        {tr("Metric"), tr("Boundary"), tr("Percentile"), tr("Threshold"), tr("Result")});
    m_objectives->verticalHeader()->hide();
    m_objectives->horizontalHeader()->setStretchLastSection(true);
    m_objectives->setMinimumHeight(120);
    auto *add = new QPushButton(tr("Add Objective"), box);
    auto *remove = new QPushButton(tr("Remove"), box);
    connect(add, &QPushButton::clicked, this, [this] {
        addObjectiveRow(Objective{m_state->metric(), m_state->boundary(), 0.95, 1000.0}, nullptr);
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (m_objectives->currentRow() >= 0)
            m_objectives->removeRow(m_objectives->currentRow());
    });
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch();

    auto *form = new QFormLayout;
    form->addRow(tr("Title"), m_title);
    auto *who = new QHBoxLayout;
    who->addWidget(m_author, 2);
    who->addWidget(new QLabel(tr("Date"), box));
    who->addWidget(m_date, 1);
    form->addRow(tr("Author"), who);
    form->addRow(tr("Claim"), m_claim);
    auto *layout = new QVBoxLayout(box);
    layout->addLayout(form);
    layout->addWidget(m_objectives, 1);
    layout->addLayout(buttons);
    m_checks = measuredLabel(box);
    m_checks->setObjectName(QStringLiteral("recordChecks"));
    layout->addWidget(m_checks);
    return box;
}

QWidget *RecordPanel::createCoordinatesBox()
{
    auto *box = new QGroupBox(tr("Coordinates and configuration"), this);
    m_boundary = boundaryCombo(box, Boundary::Client);
    m_metric = metricCombo(box, Metric::Ttft);
    m_percentile = spinBox(box, 0.5, 0.999, 3, 0.95);
    m_percentile->setSingleStep(0.01);
    m_arrival = measuredLabel(box);
    m_arrival->setObjectName(QStringLiteral("recordArrival"));
    m_arrivalNote = new QLineEdit(box);
    m_arrivalNote->setPlaceholderText(tr("e.g. the expected burst envelope"));
    m_shape = measuredLabel(box);
    m_shape->setObjectName(QStringLiteral("recordShape"));
    m_shapeNote = new QLineEdit(box);
    m_workloadNote = new QLineEdit(box);
    m_workloadNote->setPlaceholderText(tr("what the workload figures show"));
    m_configuration = new QTableWidget(0, 3, box);
    m_configuration->setObjectName(QStringLiteral("recordConfiguration"));
    m_configuration->setHorizontalHeaderLabels({tr("Key"), tr("Value"), tr("Source")});
    m_configuration->verticalHeader()->hide();
    m_configuration->horizontalHeader()->setSectionResizeMode(ValueColumn, QHeaderView::Stretch);
    m_configuration->setMinimumHeight(120);
    // Editing a value the trace filled in makes it the author's.
    connect(m_configuration, &QTableWidget::itemChanged, this, [this](QTableWidgetItem *item) {
        if (item->column() == SourceColumn)
            return;
        if (QTableWidgetItem *source = m_configuration->item(item->row(), SourceColumn)) {
            const QSignalBlocker block(m_configuration);
            source->setText(tr("author"));
        }
    });
    auto *add = new QPushButton(tr("Add Entry"), box);
    auto *remove = new QPushButton(tr("Remove"), box);
    connect(add, &QPushButton::clicked, this, [this] { addConfigurationRow(ManifestEntry{}); });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (m_configuration->currentRow() >= 0)
            m_configuration->removeRow(m_configuration->currentRow());
    });
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch();

    auto *target = new QHBoxLayout;
    target->addWidget(m_boundary);
    target->addWidget(m_metric);
    target->addWidget(m_percentile);
    auto *form = new QFormLayout;
    form->addRow(tr("Boundary, metric, percentile"), target);
    form->addRow(tr("Arrival process"), m_arrival);
    form->addRow(QString(), m_arrivalNote);
    form->addRow(tr("Request shape"), m_shape);
    form->addRow(QString(), m_shapeNote);
    form->addRow(tr("Workload"), m_workloadNote);
    auto *layout = new QVBoxLayout(box);
    layout->addLayout(form);
    layout->addWidget(new QLabel(tr("Configuration manifest"), box));
    layout->addWidget(m_configuration, 1);
    layout->addLayout(buttons);
    return box;
}

QWidget *RecordPanel::createEvidenceBox()
{
    auto *box = new QGroupBox(tr("Trace boundaries, suspect and experiment"), this);
    m_boundaries = measuredLabel(box);
    m_boundaries->setObjectName(QStringLiteral("recordBoundaries"));
    m_boundariesNote = new QLineEdit(box);
    m_boundariesNote->setPlaceholderText(tr("e.g. clocks synchronised by PTP"));
    m_suspect = new QLineEdit(box);
    m_suspect->setObjectName(QStringLiteral("recordSuspect"));
    m_suspectSource = measuredLabel(box);
    connect(m_suspect, &QLineEdit::textEdited, this, [this] {
        m_measured.suspect.source = SuspectedPhase::Source::Person;
        m_suspectSource->setText(RecordText::suspectSource(m_measured.suspect.source));
    });
    m_evidence = textBox(box, 3);
    m_symptom = new QLineEdit(box);
    m_test = textBox(box, 3);
    m_test->setObjectName(QStringLiteral("recordTest"));
    auto *form = new QFormLayout(box);
    form->addRow(tr("Boundaries"), m_boundaries);
    form->addRow(QString(), m_boundariesNote);
    form->addRow(tr("Suspected phase"), m_suspect);
    form->addRow(QString(), m_suspectSource);
    form->addRow(tr("Evidence"), m_evidence);
    form->addRow(tr("Symptom"), m_symptom);
    form->addRow(tr("Experiment"), m_test);
    return box;
}

QWidget *RecordPanel::createStopRuleBox()
{
    auto *box = new QGroupBox(tr("Stop rule"), this);
    m_materialShare = spinBox(box, 0.0, 100.0, 1, 20.0, QStringLiteral(" %"));
    m_materialShare->setToolTip(tr("The suspect must carry at least this share of the target percentile's excess"));
    m_minimumGain = spinBox(box, 0.0, 1e9, 1, 0.0, QStringLiteral(" ms"));
    m_representativeLoad = new QLineEdit(box);
    m_guardrails = textBox(box, 3);
    m_guardrails->setPlaceholderText(tr("one guardrail per line (quality, cost, fairness)"));
    m_verdict = measuredLabel(box);
    m_verdict->setObjectName(QStringLiteral("recordVerdict"));
    auto *form = new QFormLayout(box);
    form->addRow(tr("Material share"), m_materialShare);
    form->addRow(tr("Minimum gain"), m_minimumGain);
    form->addRow(tr("Representative load"), m_representativeLoad);
    form->addRow(tr("Guardrails"), m_guardrails);
    form->addRow(tr("Verdict"), m_verdict);
    return box;
}

void RecordPanel::addObjectiveRow(const Objective &objective, const ObjectiveCheck *check)
{
    const int row = m_objectives->rowCount();
    m_objectives->insertRow(row);
    QComboBox *metric = metricCombo(m_objectives, objective.metric);
    m_objectives->setCellWidget(row, MetricColumn, metric);
    m_objectives->setCellWidget(row, BoundaryColumn, boundaryCombo(m_objectives, objective.boundary));
    auto *percentile = spinBox(m_objectives, 0.5, 0.999, 3, objective.q);
    percentile->setSingleStep(0.01);
    m_objectives->setCellWidget(row, PercentileColumn, percentile);
    QDoubleSpinBox *threshold
        = spinBox(m_objectives, 0.0, 1e9, 1, objective.thresholdMs, QLatin1Char(' ') + metricUnit(objective.metric));
    m_objectives->setCellWidget(row, ThresholdColumn, threshold);
    connect(metric, &QComboBox::currentIndexChanged, threshold, [metric, threshold] {
        threshold->setSuffix(QLatin1Char(' ') + metricUnit(static_cast<Metric>(metric->currentData().toInt())));
    });
    auto *result = new QTableWidgetItem(check ? RecordText::checkVerdict(*check) : tr("not measured yet"));
    result->setFlags(result->flags() & ~Qt::ItemIsEditable);
    result->setToolTip(check ? RecordText::check(*check) : QString());
    if (check && check->measured())
        result->setForeground(check->met ? QColor(0x00, 0x72, 0xb2) : QColor(0xd5, 0x5e, 0x00));
    m_objectives->setItem(row, ResultColumn, result);
}

void RecordPanel::addConfigurationRow(const ManifestEntry &entry)
{
    const QSignalBlocker block(m_configuration);
    const int row = m_configuration->rowCount();
    m_configuration->insertRow(row);
    m_configuration->setItem(row, KeyColumn, new QTableWidgetItem(entry.key));
    m_configuration->setItem(row, ValueColumn, new QTableWidgetItem(entry.value));
    auto *source = new QTableWidgetItem(entry.fromTrace ? tr("trace") : tr("author"));
    source->setFlags(source->flags() & ~Qt::ItemIsEditable);
    m_configuration->setItem(row, SourceColumn, source);
}

void RecordPanel::showMeasured(const DiagnosisRecord &record)
{
    m_arrival->setText(RecordText::arrival(record.coordinates.arrival));
    QStringList shape{RecordText::tokens(record.coordinates.shape)};
    shape += RecordText::classMix(record.coordinates.shape);
    const QString workflows = RecordText::workflows(record.coordinates.shape);
    if (!workflows.isEmpty())
        shape.append(workflows);
    m_shape->setText(shape.join(QLatin1Char('\n')));
    const TraceBoundaries &b = record.boundaries;
    QStringList lines;
    if (!b.trace.isEmpty())
        lines.append(tr("%1 (%2): %3 requests, %4 spans")
                         .arg(b.trace, b.format, RecordText::grouped(b.requests), RecordText::grouped(b.spans)));
    lines.append(RecordText::phases(b));
    lines.append(RecordText::rejected(b));
    for (const QString &caveat : b.clockCaveats)
        lines.append(QStringLiteral("\u26a0 ") + caveat);
    m_boundaries->setText(lines.join(QLatin1Char('\n')));
    m_suspectSource->setText(RecordText::suspectSource(record.suspect.source));
    m_verdict->setText(RecordText::verdict(record.verdict));
}

void RecordPanel::setRecord(const DiagnosisRecord &record)
{
    // A record set from outside (opened, restored) wins over a measurement
    // under way, and over one kept for when the panel is in sight.
    m_job.cancel();
    m_kept.reset();
    m_show->markDone();
    m_measured = record;
    m_title->setText(record.title);
    m_author->setText(record.author);
    m_date->setText(record.date);
    m_claim->setPlainText(record.claim);
    m_objectives->setRowCount(0);
    QStringList checks;
    for (size_t i = 0; i < record.objectives.size(); ++i) {
        const ObjectiveCheck *check = i < record.checks.size() && record.checks[i].objective == record.objectives[i]
            ? &record.checks[i]
            : nullptr;
        addObjectiveRow(record.objectives[i], check);
        if (check)
            checks.append(
                QStringLiteral("%1: %2").arg(RecordText::objective(check->objective), RecordText::check(*check)));
    }
    m_checks->setText(checks.isEmpty() ? tr("Objectives not checked yet: Measure on View.")
                                       : tr("Against %1:\n").arg(record.measuredOn) + checks.join(QLatin1Char('\n')));
    m_objectives->resizeColumnsToContents();
    m_boundary->setCurrentIndex(m_boundary->findData(int(record.coordinates.boundary)));
    m_metric->setCurrentIndex(m_metric->findData(int(record.coordinates.metric)));
    m_percentile->setValue(record.coordinates.q);
    m_arrivalNote->setText(record.coordinates.arrivalNote);
    m_shapeNote->setText(record.coordinates.shapeNote);
    m_workloadNote->setText(record.workloadNote);
    m_configuration->setRowCount(0);
    for (const ManifestEntry &entry : record.configuration)
        addConfigurationRow(entry);
    m_configuration->resizeColumnToContents(KeyColumn);
    m_boundariesNote->setText(record.boundaries.note);
    m_suspect->setText(record.suspect.phase);
    m_evidence->setPlainText(record.suspect.evidence);
    m_symptom->setText(record.experiment.symptom);
    m_test->setPlainText(record.experiment.test);
    m_materialShare->setValue(record.stopRule.materialShare * 100.0);
    m_minimumGain->setValue(record.stopRule.minimumGainMs);
    m_representativeLoad->setText(record.stopRule.representativeLoad);
    m_guardrails->setPlainText(record.stopRule.guardrails.join(QLatin1Char('\n')));
    showMeasured(record);
}

DiagnosisRecord RecordPanel::record() const
{
    // A measurement kept while out of sight is part of the record: shown now.
    if (m_kept)
        m_show->flush();
    return shownRecord();
}

DiagnosisRecord RecordPanel::shownRecord() const
{
    DiagnosisRecord record = m_measured;
    record.title = m_title->text();
    record.author = m_author->text();
    record.date = m_date->text();
    record.claim = m_claim->toPlainText();
    record.objectives.clear();
    for (int row = 0; row < m_objectives->rowCount(); ++row) {
        Objective objective;
        objective.metric = static_cast<Metric>(
            qobject_cast<QComboBox *>(m_objectives->cellWidget(row, MetricColumn))->currentData().toInt());
        objective.boundary = static_cast<Boundary>(
            qobject_cast<QComboBox *>(m_objectives->cellWidget(row, BoundaryColumn))->currentData().toInt());
        objective.q = qobject_cast<QDoubleSpinBox *>(m_objectives->cellWidget(row, PercentileColumn))->value();
        objective.thresholdMs = qobject_cast<QDoubleSpinBox *>(m_objectives->cellWidget(row, ThresholdColumn))->value();
        record.objectives.push_back(objective);
    }
    record.coordinates.boundary = static_cast<Boundary>(m_boundary->currentData().toInt());
    record.coordinates.metric = static_cast<Metric>(m_metric->currentData().toInt());
    record.coordinates.q = m_percentile->value();
    record.coordinates.arrivalNote = m_arrivalNote->text();
    record.coordinates.shapeNote = m_shapeNote->text();
    record.workloadNote = m_workloadNote->text();
    record.configuration.clear();
    for (int row = 0; row < m_configuration->rowCount(); ++row) {
        const auto text = [this, row](int column) {
            const QTableWidgetItem *item = m_configuration->item(row, column);
            return item ? item->text() : QString();
        };
        if (text(KeyColumn).isEmpty() && text(ValueColumn).isEmpty())
            continue;
        record.configuration.push_back({text(KeyColumn), text(ValueColumn), text(SourceColumn) == tr("trace")});
    }
    record.boundaries.note = m_boundariesNote->text();
    record.suspect.phase = m_suspect->text();
    record.suspect.evidence = m_evidence->toPlainText();
    record.experiment = {m_symptom->text(), m_test->toPlainText()};
    record.stopRule.materialShare = m_materialShare->value() / 100.0;
    record.stopRule.minimumGainMs = m_minimumGain->value();
    record.stopRule.representativeLoad = m_representativeLoad->text();
    record.stopRule.guardrails = m_guardrails->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    return record;
}

void RecordPanel::onStoreChanged()
{
    const auto &store = m_state->store();
    if (!store) {
        m_job.cancel();
        m_status->setText(tr("Open a trace to draft its diagnosis record."));
        return;
    }
    m_traceName = traceNameOf(*store);
    m_showMayWait = m_state->isStoreRefresh();
    measure();
}

void RecordPanel::measure()
{
    const auto store = m_state->store();
    if (!store)
        return;
    const QString trace = m_traceName.isEmpty() ? traceNameOf(*store) : m_traceName;
    if (m_state->hasSlice() && m_state->slice().isEmpty()) {
        m_status->setText(tr("The slice is empty: nothing to measure."));
        return;
    }
    // Measured again from the newest measurement, kept or shown (measuring
    // out of sight never draws the kept one; nobody can edit it meanwhile).
    DiagnosisRecord record = m_kept ? *m_kept : shownRecord();
    const bool fresh = record.title.isEmpty() && record.objectives.empty() && record.measuredOn.isEmpty();
    const RowSet rows = m_state->hasSlice() ? m_state->slice() : RowSet();
    const QString slice = m_state->hasSlice() ? m_state->sliceLabel() : QString();
    const Boundary boundary = m_state->boundary();
    const Metric metric = m_state->metric();
    if (!m_showMayWait || !InSightWork::isOutOfSight(this))
        m_status->setText(tr("Measuring on %1\u2026").arg(trace));
    m_job.start(
        [store, record, rows, trace, slice, fresh, boundary, metric](const std::atomic<bool> *) mutable {
            const RecordDraft::Scope scope{rows.rows(), trace, slice};
            if (fresh)
                return RecordDraft::draft(*store, scope, boundary, metric, 0.95);
            RecordDraft::measure(record, *store, scope);
            return record;
        },
        [this](const DiagnosisRecord &measured) {
            m_kept = measured;
            m_show->run(m_showMayWait);
        });
}

void RecordPanel::showMeasured()
{
    if (!m_kept)
        return;
    const DiagnosisRecord measured = std::move(*m_kept);
    m_kept.reset();
    setRecord(measured);
    m_status->setText(tr("Measured on %1.").arg(measured.measuredOn));
    emit recordReplaced();
}

bool RecordPanel::saveTo(const QString &path, QString *error) const
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(RecordJson::write(record())) < 0 || !file.commit()) {
        if (error)
            *error = tr("Could not write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

bool RecordPanel::openFrom(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = tr("Could not open %1: %2").arg(path, file.errorString());
        return false;
    }
    DiagnosisRecord record;
    QString problem;
    if (!RecordJson::read(file.readAll(), &record, &problem)) {
        if (error)
            *error = tr("%1: %2").arg(path, problem);
        return false;
    }
    m_job.cancel();
    setRecord(record);
    m_status->setText(tr("Opened %1 (measured on %2).").arg(QFileInfo(path).fileName(), record.measuredOn));
    emit recordReplaced();
    return true;
}

void RecordPanel::saveWithDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save diagnosis record"), QString(),
                                                      tr("Diagnosis records (*.record.json *.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!saveTo(path, &error))
        QMessageBox::warning(this, tr("Save diagnosis record"), error);
    else
        m_status->setText(tr("Saved %1.").arg(QFileInfo(path).fileName()));
}

void RecordPanel::openWithDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open diagnosis record"), QString(),
                                                      tr("Diagnosis records (*.record.json *.json);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!openFrom(path, &error))
        QMessageBox::warning(this, tr("Open diagnosis record"), error);
}
