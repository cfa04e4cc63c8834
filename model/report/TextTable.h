#pragma once

#include <QString>
#include <QStringList>

#include <vector>

// A plain-text table for terminal reports: columns padded to their widest
// cell, text left-aligned and figures right-aligned, two spaces between.
class TextTable
{
public:
    enum class Align { Left, Right };

    explicit TextTable(QStringList headers, std::vector<Align> alignment);

    void addRow(QStringList cells);
    QString render() const; // lines joined by '\n', no trailing newline

private:
    QStringList m_headers;
    std::vector<Align> m_alignment;
    std::vector<QStringList> m_rows;
};
